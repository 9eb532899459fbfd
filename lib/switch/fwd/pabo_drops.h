#pragma once
// The drop reasons of FWD's PABO stage (switch/fwd/pabo_stage.h): X(enumerator, name, kind,
// description), composed into the switch's list by switch/drop_reasons.h.

// clang-format off
#define FCSWITCH_PABO_DROP_REASONS(X)                                                             \
  X(kQueueCapacity, "queue_capacity", kData,                                                      \
    "a PABO queue's sub-queue was at its capacity ([pabo]): a drop-tail queue without bouncing, " \
    "or no room in the bounce sub-queue a bounce goes to")                                        \
  X(kNoHeadroom, "no_headroom", kData,                                                            \
    "a bounce found no room in front of the frame for PABO's shim (mbuf headroom)")
// clang-format on

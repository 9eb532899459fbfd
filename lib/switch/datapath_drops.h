#pragma once
// The drop reasons of the datapath itself (switch/drop_reasons.h composes the list): RX's, FWD's
// frame checks, FIB and flood, the shared buffer's admission, the egress rings, TX's watchdog
// and the stop. X(enumerator, name, kind, description), as every feature's list.

// clang-format off
#define FCSWITCH_DATAPATH_DROP_REASONS(X)                                                         \
  X(kRunt, "runt", kData, "ends inside its Ethernet header (14 bytes, 18 with a VLAN tag)")       \
  X(kMalformed, "malformed", kData,                                                               \
    "an IP header that runs past the frame's end, or a bad IP version")                           \
  X(kLinkLocal, "link_local", kData,                                                              \
    "to 01:80:C2:00:00:0x (802.1D reserved), which a bridge never forwards")                      \
  X(kSamePort, "same_port", kData, "the FIB sends it back out of its ingress port")               \
  X(kNoEgressPort, "no_egress_port", kData, "a flood with nowhere to go (a one-port switch)")     \
  X(kLossyBufferFull, "lossy_buffer_full", kData,                                                 \
    "a lossy-priority frame refused by the shared buffer's dynamic threshold")                    \
  X(kLosslessOverflow, "lossless_overflow", kLossless,                                            \
    "a lossless-priority frame that would exceed its ingress limit: flow control failed")         \
  X(kEgressRingFull, "egress_ring_full", kData,                                                   \
    "the egress queue's ring was full before the buffer was: ring too small for the buffer")      \
  X(kFwdRingFull, "fwd_ring_full", kData, "RX could not hand the burst to FWD")                   \
  X(kCopyFailed, "copy_failed", kData, "the mempool ran empty while copying a flooded frame")     \
  X(kShutdownFlush, "shutdown_flush", kData,                                                      \
    "still queued when the drain deadline passed at shutdown")                                    \
  X(kAfterStop, "after_stop", kData,                                                              \
    "a data frame that arrived after the switch stopped receiving (shutdown); its port is still " \
    "read for flow-control frames while the queues drain")                                        \
  X(kControlInvalid, "control_invalid", kControl,                                                 \
    "a flow-control frame its decoder refused (short, bad address, opcode)")                      \
  X(kControlUntrusted, "control_untrusted", kControl,                                             \
    "a flow-control frame on a port told not to trust them")                                      \
  X(kControlRingFull, "control_ring_full", kControl,                                              \
    "RX could not hand a flow-control frame's messages to TX")                                    \
  X(kWatchdogDrop, "watchdog_drop", kData,                                                        \
    "dropped from a queue whose gate the watchdog found stuck (action drop)")                     \
  X(kOversize, "oversize", kData,                                                                 \
    "longer than the ingress port's MTU allows (+ Ethernet header and VLAN tag)")
// clang-format on

#pragma once
// The drop reasons of FWD's next-hop stage (switch/fwd/next_hop.h): X(enumerator, name, kind,
// description), composed into the switch's list by switch/drop_reasons.h.

// clang-format off
#define FCSWITCH_NEXT_HOP_DROP_REASONS(X)                                                         \
  X(kTtlExpired, "ttl_expired", kData,                                                            \
    "the IPv4 TTL or IPv6 hop limit ran out ([switch] decrement_ttl): a routing loop")
// clang-format on

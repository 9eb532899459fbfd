#pragma once
// What a router does to a packet it forwards: IPv4's TTL or IPv6's hop limit goes down by one
// (RFC 791, RFC 8200), and a packet that arrives with 1 or 0 left goes no further. The lab's
// switches do it when told ([switch] decrement_ttl), so that a routing loop ends as in
// Tagger's testbed (Tagger §8.1) instead of circling until the run stops. IPv4's header
// checksum is updated incrementally (RFC 1624, wire/dscp_rewrite.h).

#include <cstdint>

#include "wire/frame_header.h"

namespace fcswitch::wire {

enum class TtlResult : uint8_t { kDecremented, kExpired, kNotIp };

// `frame` is the frame `header` was parsed from. Leaves an expired packet unchanged.
TtlResult decrement_ttl(uint8_t* frame, const FrameHeader& header);

}  // namespace fcswitch::wire

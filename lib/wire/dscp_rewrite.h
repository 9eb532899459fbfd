#pragma once
// Writes a new DSCP into a parsed IPv4 or IPv6 header in place, keeping the ECN bits
// (RFC 3168). IPv4's header checksum is updated incrementally, RFC 1624 Eqn. 3:
// HC' = ~(~HC + ~m + m'), m and m' the old and new 16-bit word holding the TOS byte. IPv6 has
// no header checksum and the traffic class is outside every transport pseudo-header.

#include <cstdint>

#include "wire/frame_header.h"

namespace fcswitch::wire {

// `frame` is the frame `header` was parsed from (l3 IPv4 or IPv6; anything else is left alone).
void rewrite_dscp(uint8_t* frame, const FrameHeader& header, uint8_t dscp);

// RFC 1624 Eqn. 3 on one 16-bit word of a one's-complement-summed header.
uint16_t checksum_after_word_change(uint16_t checksum, uint16_t old_word, uint16_t new_word);

}  // namespace fcswitch::wire

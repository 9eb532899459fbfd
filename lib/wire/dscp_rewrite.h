#pragma once
// Writes a new DSCP into a parsed IPv4 or IPv6 header in place, keeping the ECN bits
// (RFC 3168). IPv4's header checksum is updated incrementally, RFC 1624 Eqn. 3:
// HC' = ~(~HC + ~m + m'), m and m' the old and new 16-bit word holding the TOS byte. IPv6 has
// no header checksum and the traffic class is outside every transport pseudo-header.

#include <cstdint>

#include "wire/frame_header.h"

namespace fcswitch::wire {

// Both inline: FWD rewrites (Tagger) and marks (ECN) every packet of a run.

// RFC 1624 Eqn. 3 on one 16-bit word of a one's-complement-summed header.
inline uint16_t checksum_after_word_change(uint16_t checksum, uint16_t old_word,
                                           uint16_t new_word) {
  uint32_t sum = static_cast<uint16_t>(~checksum);
  sum += static_cast<uint16_t>(~old_word);
  sum += new_word;
  sum = (sum & 0xFFFF) + (sum >> 16);
  sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

// `frame` is the frame `header` was parsed from (l3 IPv4 or IPv6; anything else is left alone).
inline void rewrite_dscp(uint8_t* frame, const FrameHeader& header, uint8_t dscp) {
  uint8_t* ip = frame + header.l3_offset;
  if (header.l3 == L3Kind::kIpv4) {
    const uint16_t old_word = static_cast<uint16_t>(ip[0] << 8 | ip[1]);
    ip[1] = static_cast<uint8_t>((dscp << 2) | (ip[1] & 0x03));
    const uint16_t new_word = static_cast<uint16_t>(ip[0] << 8 | ip[1]);
    const uint16_t checksum = static_cast<uint16_t>(ip[10] << 8 | ip[11]);
    const uint16_t updated = checksum_after_word_change(checksum, old_word, new_word);
    ip[10] = static_cast<uint8_t>(updated >> 8);
    ip[11] = static_cast<uint8_t>(updated);
  } else if (header.l3 == L3Kind::kIpv6) {
    // Version (4 bits) | traffic class (8) | flow label (20): DSCP is the class's top six bits.
    const uint8_t traffic_class =
        static_cast<uint8_t>((dscp << 2) | (((ip[0] & 0x0F) << 4 | ip[1] >> 4) & 0x03));
    ip[0] = static_cast<uint8_t>((ip[0] & 0xF0) | traffic_class >> 4);
    ip[1] = static_cast<uint8_t>((ip[1] & 0x0F) | (traffic_class & 0x0F) << 4);
  }
}

}  // namespace fcswitch::wire

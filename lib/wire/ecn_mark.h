#pragma once
// The ECN field of IPv4 and IPv6 (RFC 3168 §5): the two low bits of the TOS byte / traffic
// class. A congested switch sets CE (11) on a packet whose transport said it understands ECN
// (ECT(0) 10 or ECT(1) 01), instead of dropping it (RFC 3168 §5, §6.1.1); a Not-ECT (00) packet
// is never touched, and CE stays CE. IPv4's header checksum is updated incrementally (RFC 1624,
// wire/dscp_rewrite.h), as Tagger's DSCP rewrite does; IPv6 has none.

#include <cstdint>

#include "wire/big_endian.h"
#include "wire/dscp_rewrite.h"
#include "wire/frame_header.h"

namespace fcswitch::wire {

// RFC 3168 §5's codepoints, by their value in the field.
enum class EcnCodepoint : uint8_t { kNotEct = 0b00, kEct1 = 0b01, kEct0 = 0b10, kCe = 0b11 };

// The codepoint of a parsed IPv4/IPv6 frame; kNotEct for anything else (no ECN field there).
// `frame` is the frame `header` was parsed from. Inline: FWD reads it of every packet that
// joins a marking queue.
inline EcnCodepoint read_ecn(const uint8_t* frame, const FrameHeader& header) {
  // IPv4: the TOS byte's two low bits. IPv6: version (4 bits) | traffic class (8) | flow
  // label (20), the class's two low bits in the top nibble of the header's second byte.
  if (header.l3 == L3Kind::kIpv4)
    return static_cast<EcnCodepoint>(frame[header.l3_offset + 1] & 0b11);
  if (header.l3 == L3Kind::kIpv6)
    return static_cast<EcnCodepoint>(frame[header.l3_offset + 1] >> 4 & 0b11);
  return EcnCodepoint::kNotEct;
}

enum class CeMarkResult : uint8_t {
  kMarked,     // was ECT(0) or ECT(1), now CE
  kAlreadyCe,  // CE on arrival: left as it was
  kNotEct,     // Not-ECT, or not IP: left as it was (RFC 3168 §5: the switch may only drop it)
};

// Sets CE on an ECT IPv4/IPv6 packet, keeping every other bit (and IPv4's checksum right).
CeMarkResult mark_ce(uint8_t* frame, const FrameHeader& header);

// mark_ce's change, on a packet the caller knows to be ECT(0) or ECT(1). Inline: FWD marks
// a run's packets one after another.
inline void set_ce(uint8_t* frame, const FrameHeader& header) {
  constexpr uint8_t kCeBits = 0b11;
  uint8_t* ip = frame + header.l3_offset;
  if (header.l3 == L3Kind::kIpv4) {
    // The TOS byte shares the header's first 16-bit word with version and IHL.
    const uint16_t old_word = load_be16(ip);
    ip[1] |= kCeBits;
    store_be16(ip + 10, checksum_after_word_change(load_be16(ip + 10), old_word, load_be16(ip)));
  } else {
    ip[1] |= kCeBits << 4;  // the traffic class's ECN bits, in the header's second byte
  }
}

}  // namespace fcswitch::wire

#include "wire/ecn_mark.h"

#include "wire/big_endian.h"
#include "wire/dscp_rewrite.h"

namespace fcswitch::wire {

namespace {

constexpr uint8_t kCeBits = 0b11;
constexpr int kIpv6EcnShift = 4;  // the class's ECN bits in the header's second byte

}  // namespace

CeMarkResult mark_ce(uint8_t* frame, const FrameHeader& header) {
  const EcnCodepoint codepoint = read_ecn(frame, header);
  if (codepoint == EcnCodepoint::kNotEct) return CeMarkResult::kNotEct;
  if (codepoint == EcnCodepoint::kCe) return CeMarkResult::kAlreadyCe;
  uint8_t* ip = frame + header.l3_offset;
  if (header.l3 == L3Kind::kIpv4) {
    // The TOS byte shares the header's first 16-bit word with version and IHL.
    const uint16_t old_word = load_be16(ip);
    ip[1] |= kCeBits;
    store_be16(ip + 10, checksum_after_word_change(load_be16(ip + 10), old_word, load_be16(ip)));
  } else {
    ip[1] |= kCeBits << kIpv6EcnShift;
  }
  return CeMarkResult::kMarked;
}

}  // namespace fcswitch::wire

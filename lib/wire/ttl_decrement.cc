#include "wire/ttl_decrement.h"

#include "wire/big_endian.h"
#include "wire/dscp_rewrite.h"

namespace fcswitch::wire {

TtlResult decrement_ttl(uint8_t* frame, const FrameHeader& header) {
  uint8_t* ip = frame + header.l3_offset;
  if (header.l3 == L3Kind::kIpv4) {
    if (ip[8] <= 1) return TtlResult::kExpired;
    // TTL and protocol share the header's fifth 16-bit word.
    const uint16_t old_word = load_be16(ip + 8);
    --ip[8];
    store_be16(ip + 10,
               checksum_after_word_change(load_be16(ip + 10), old_word, load_be16(ip + 8)));
    return TtlResult::kDecremented;
  }
  if (header.l3 == L3Kind::kIpv6) {
    if (ip[7] <= 1) return TtlResult::kExpired;
    --ip[7];  // no header checksum, and the hop limit is in no pseudo-header
    return TtlResult::kDecremented;
  }
  return TtlResult::kNotIp;
}

}  // namespace fcswitch::wire

#pragma once
// The IPv4 header checksum of a header we build (RFC 791 §3.1: the one's complement of the one's
// complement sum of the header's 16-bit words, the checksum field counted as zero).

#include <cstdint>

#include "wire/big_endian.h"

namespace fcswitch::wire {

// `header`: 20 bytes (no options), its checksum field zero.
inline uint16_t ipv4_header_checksum(const uint8_t* header) {
  uint32_t sum = 0;
  for (int i = 0; i < 20; i += 2) sum += load_be16(header + i);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

}  // namespace fcswitch::wire

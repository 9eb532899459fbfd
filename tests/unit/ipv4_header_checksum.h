#pragma once
// The IPv4 header checksum computed in full (RFC 791), to check incremental updates against.

#include <cstdint>
#include <random>
#include <vector>

namespace fcswitch::wire {

// Over a 20-byte header at `ip`, its checksum field (bytes 10-11) left out.
inline uint16_t full_ipv4_checksum(const uint8_t* ip) {
  uint32_t sum = 0;
  for (int i = 0; i < 20; i += 2)
    if (i != 10) sum += static_cast<uint32_t>(ip[i] << 8 | ip[i + 1]);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

// `frame` (64 bytes) becomes random bytes with an Ethernet header for IPv4 and a 20-byte IPv4
// header whose checksum is right: what an incremental update is checked on.
inline void random_ipv4_frame(std::mt19937_64& rng, std::vector<uint8_t>& frame) {
  for (auto& b : frame) b = static_cast<uint8_t>(rng());
  frame[12] = 0x08;
  frame[13] = 0x00;
  frame[14] = 0x45;
  const uint16_t checksum = full_ipv4_checksum(&frame[14]);
  frame[24] = static_cast<uint8_t>(checksum >> 8);
  frame[25] = static_cast<uint8_t>(checksum);
}

}  // namespace fcswitch::wire

#include "wire/roce_cnp.h"

#include <array>
#include <cstring>

#include "wire/big_endian.h"
#include "wire/ether_type.h"
#include "wire/ipv4_checksum.h"

namespace fcswitch::wire {

namespace {
constexpr size_t kIpOffset = 14;
constexpr size_t kIpBytes = 20;
constexpr size_t kUdpOffset = kIpOffset + kIpBytes;
constexpr size_t kBthOffset = kUdpOffset + 8;
constexpr size_t kIcrcOffset = kRoceCnpFrameBytes - 4;
constexpr uint8_t kUdp = 17;
constexpr uint8_t kBecn = 0x40;

// CRC-32 of IEEE 802.3 (reflected polynomial 0xEDB88320), one table lookup per byte.
constexpr std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kCrcTable = make_crc_table();

uint32_t crc_update(uint32_t crc, const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) crc = kCrcTable[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return crc;
}

}  // namespace

uint32_t roce_icrc(const uint8_t* ip, size_t length) {
  constexpr uint8_t kOnes[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  uint32_t crc = crc_update(0xFFFFFFFFu, kOnes, sizeof kOnes);
  // Masked copies of the IPv4, UDP and BTH headers (IHL 5: the caller's frames have no options).
  uint8_t head[kIpBytes + 8 + 12];
  std::memcpy(head, ip, sizeof head);
  head[1] = 0xFF;                                  // TOS
  head[8] = 0xFF;                                  // TTL
  head[10] = head[11] = 0xFF;                      // header checksum
  head[kIpBytes + 6] = head[kIpBytes + 7] = 0xFF;  // UDP checksum
  head[kIpBytes + 8 + 4] = 0xFF;                   // BTH: FECN, BECN, resv6
  crc = crc_update(crc, head, sizeof head);
  crc = crc_update(crc, ip + sizeof head, length - sizeof head);
  return ~crc;
}

void write_roce_cnp(uint8_t* f, const RoceCnpSpec& spec) {
  std::memset(f, 0, kRoceCnpFrameBytes);
  spec.dst_mac.to_bytes(f);
  spec.src_mac.to_bytes(f + 6);
  store_be16(f + 12, kEtherTypeIpv4);
  uint8_t* ip = f + kIpOffset;
  ip[0] = 0x45;
  ip[1] = static_cast<uint8_t>(spec.dscp << 2);  // Not-ECT: a CNP is never marked
  store_be16(ip + 2, static_cast<uint16_t>(kRoceCnpFrameBytes - kIpOffset));
  store_be16(ip + 6, 0x4000);  // don't fragment
  ip[8] = 64;
  ip[9] = kUdp;
  store_be32(ip + 12, spec.src_ip);
  store_be32(ip + 16, spec.dst_ip);
  store_be16(ip + 10, ipv4_header_checksum(ip));
  uint8_t* udp = f + kUdpOffset;
  store_be16(udp, spec.udp_source_port);
  store_be16(udp + 2, kRoceV2UdpPort);
  store_be16(udp + 4, static_cast<uint16_t>(kRoceCnpFrameBytes - kUdpOffset));
  uint8_t* bth = f + kBthOffset;
  bth[0] = kBthOpcodeCnp;
  store_be16(bth + 2, 0xFFFF);  // the default partition
  store_be32(bth + 4, static_cast<uint32_t>(kBecn) << 24 | (spec.dest_qp & kMaxQueuePair));
  const uint32_t icrc = roce_icrc(ip, kIcrcOffset - kIpOffset);
  for (int i = 0; i < 4; ++i) f[kIcrcOffset + i] = static_cast<uint8_t>(icrc >> (8 * i));
}

std::optional<uint32_t> read_roce_cnp(const uint8_t* f, size_t length) {
  if (length < kRoceCnpFrameBytes || load_be16(f + 12) != kEtherTypeIpv4) return std::nullopt;
  const uint8_t* ip = f + kIpOffset;
  if (ip[0] != 0x45 || ip[9] != kUdp || load_be16(f + kUdpOffset + 2) != kRoceV2UdpPort ||
      f[kBthOffset] != kBthOpcodeCnp || load_be16(ip + 2) != kRoceCnpFrameBytes - kIpOffset)
    return std::nullopt;
  uint32_t icrc = 0;
  for (int i = 0; i < 4; ++i) icrc |= static_cast<uint32_t>(f[kIcrcOffset + i]) << (8 * i);
  if (icrc != roce_icrc(ip, kIcrcOffset - kIpOffset)) return std::nullopt;
  return load_be32(f + kBthOffset + 4) & kMaxQueuePair;
}

}  // namespace fcswitch::wire

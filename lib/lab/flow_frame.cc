#include "lab/flow_frame.h"

#include <cstring>

#include "wire/big_endian.h"

namespace fcswitch::lab {

namespace {
constexpr size_t kIpOffset = 14;
constexpr size_t kUdpOffset = kIpOffset + 20;
constexpr size_t kStampOffset = kUdpOffset + 8;
constexpr size_t kSequenceOffset = kStampOffset + 8;
constexpr uint8_t kMagic[4] = {'F', 'C', 'L', 'B'};
constexpr uint8_t kUdp = 17;

void store_be64(uint8_t* p, uint64_t v) {
  wire::store_be32(p, static_cast<uint32_t>(v >> 32));
  wire::store_be32(p + 4, static_cast<uint32_t>(v));
}

// RFC 791: one's complement of the one's complement sum of the header's 16-bit words.
uint16_t ipv4_checksum(const uint8_t* header) {
  uint32_t sum = 0;
  for (size_t i = 0; i < 20; i += 2) sum += wire::load_be16(header + i);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}
// An ephemeral port per flow (RFC 6335's dynamic range), so ECMP spreads flows, not hosts.
uint16_t flow_source_port(uint32_t flow) {
  return static_cast<uint16_t>(49152 + flow % 16384);
}
}  // namespace

topology::FiveTuple flow_five_tuple(const FlowFrameSpec& spec) {
  return topology::FiveTuple{spec.src_ip, spec.dst_ip, flow_source_port(spec.flow), kFlowUdpPort,
                             kUdp};
}

std::vector<uint8_t> make_flow_frame(const FlowFrameSpec& spec) {
  const uint32_t length =
      spec.frame_bytes < kFlowFrameMinBytes ? kFlowFrameMinBytes : spec.frame_bytes;
  std::vector<uint8_t> f(length, 0);
  spec.dst_mac.to_bytes(f.data());
  spec.src_mac.to_bytes(f.data() + 6);
  wire::store_be16(f.data() + 12, 0x0800);
  uint8_t* ip = f.data() + kIpOffset;
  ip[0] = 0x45;
  ip[1] = static_cast<uint8_t>(spec.dscp << 2);
  wire::store_be16(ip + 2, static_cast<uint16_t>(length - kIpOffset));
  wire::store_be16(ip + 6, 0x4000);  // don't fragment
  ip[8] = 64;
  ip[9] = kUdp;
  wire::store_be32(ip + 12, spec.src_ip);
  wire::store_be32(ip + 16, spec.dst_ip);
  wire::store_be16(ip + 10, ipv4_checksum(ip));
  uint8_t* udp = f.data() + kUdpOffset;
  wire::store_be16(udp, flow_source_port(spec.flow));
  wire::store_be16(udp + 2, kFlowUdpPort);
  wire::store_be16(udp + 4, static_cast<uint16_t>(length - kUdpOffset));
  std::memcpy(f.data() + kStampOffset, kMagic, sizeof kMagic);
  wire::store_be32(f.data() + kStampOffset + 4, spec.flow);
  return f;
}

void stamp_flow_sequence(uint8_t* frame, uint64_t sequence) {
  store_be64(frame + kSequenceOffset, sequence);
}

std::optional<FlowStamp> read_flow_stamp(const uint8_t* data, size_t length) {
  if (length < kSequenceOffset + 8 || wire::load_be16(data + 12) != 0x0800 ||
      data[kIpOffset] != 0x45 || data[kIpOffset + 9] != kUdp ||
      std::memcmp(data + kStampOffset, kMagic, sizeof kMagic) != 0)
    return std::nullopt;
  const uint64_t sequence = static_cast<uint64_t>(wire::load_be32(data + kSequenceOffset)) << 32 |
                            wire::load_be32(data + kSequenceOffset + 4);
  return FlowStamp{wire::load_be32(data + kStampOffset + 4), sequence};
}

}  // namespace fcswitch::lab

#include "traffic/flow_frame.h"

#include <cstring>
#include <utility>

#include "wire/big_endian.h"
#include "wire/ipv4_checksum.h"
#include "wire/roce_cnp.h"

namespace fcswitch::lab {

namespace {
constexpr size_t kIpOffset = 14;
constexpr size_t kUdpOffset = kIpOffset + 20;
constexpr size_t kStampOffset = kUdpOffset + 8;
constexpr size_t kSequenceOffset = kStampOffset + 8;
constexpr size_t kSendTimeOffset = kSequenceOffset + 8;
static_assert(kSendTimeOffset + 8 == kTimedFrameMinBytes);
constexpr uint8_t kMagic[4] = {'F', 'C', 'L', 'B'};
constexpr uint8_t kAckMagic[4] = {'F', 'C', 'L', 'A'};
constexpr uint8_t kEct0 = 0b10;  // RFC 3168 §5
constexpr uint8_t kUdp = 17;

void store_be64(uint8_t* p, uint64_t v) {
  wire::store_be32(p, static_cast<uint32_t>(v >> 32));
  wire::store_be32(p + 4, static_cast<uint32_t>(v));
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

namespace {
std::vector<uint8_t> make_frame(const FlowFrameSpec& spec, uint16_t source_port, uint16_t dest_port,
                                const uint8_t (&magic)[4]) {
  const uint32_t length =
      spec.frame_bytes < kFlowFrameMinBytes ? kFlowFrameMinBytes : spec.frame_bytes;
  std::vector<uint8_t> f(length, 0);
  spec.dst_mac.to_bytes(f.data());
  spec.src_mac.to_bytes(f.data() + 6);
  wire::store_be16(f.data() + 12, 0x0800);
  uint8_t* ip = f.data() + kIpOffset;
  ip[0] = 0x45;
  ip[1] = static_cast<uint8_t>(spec.dscp << 2 | (spec.ecn_capable ? kEct0 : 0));
  wire::store_be16(ip + 2, static_cast<uint16_t>(length - kIpOffset));
  wire::store_be16(ip + 6, 0x4000);  // don't fragment
  ip[8] = 64;
  ip[9] = kUdp;
  wire::store_be32(ip + 12, spec.src_ip);
  wire::store_be32(ip + 16, spec.dst_ip);
  wire::store_be16(ip + 10, wire::ipv4_header_checksum(ip));
  uint8_t* udp = f.data() + kUdpOffset;
  wire::store_be16(udp, source_port);
  wire::store_be16(udp + 2, dest_port);
  wire::store_be16(udp + 4, static_cast<uint16_t>(length - kUdpOffset));
  std::memcpy(f.data() + kStampOffset, magic, sizeof magic);
  wire::store_be32(f.data() + kStampOffset + 4, spec.flow);
  return f;
}

FlowFrameSpec reversed(const FlowFrameSpec& spec, uint8_t dscp, uint32_t frame_bytes) {
  FlowFrameSpec back = spec;
  std::swap(back.src_mac, back.dst_mac);
  std::swap(back.src_ip, back.dst_ip);
  back.dscp = dscp;
  back.frame_bytes = frame_bytes;
  back.ecn_capable = false;
  return back;
}

std::optional<FlowStamp> read_stamp(const uint8_t* data, size_t length, const uint8_t (&magic)[4]) {
  if (length < kSequenceOffset + 8 || wire::load_be16(data + 12) != 0x0800 ||
      data[kIpOffset] != 0x45 || data[kIpOffset + 9] != kUdp ||
      std::memcmp(data + kStampOffset, magic, sizeof magic) != 0)
    return std::nullopt;
  const uint64_t sequence = static_cast<uint64_t>(wire::load_be32(data + kSequenceOffset)) << 32 |
                            wire::load_be32(data + kSequenceOffset + 4);
  return FlowStamp{wire::load_be32(data + kStampOffset + 4), sequence};
}
}  // namespace

std::vector<uint8_t> make_flow_frame(const FlowFrameSpec& spec) {
  return make_frame(spec, flow_source_port(spec.flow), kFlowUdpPort, kMagic);
}

std::vector<uint8_t> make_ack_frame(const FlowFrameSpec& spec, uint8_t dscp, bool timed) {
  return make_frame(reversed(spec, dscp, timed ? kTimedFrameMinBytes : kFlowFrameMinBytes),
                    kFlowUdpPort, flow_source_port(spec.flow), kAckMagic);
}

std::vector<uint8_t> make_cnp_frame(const FlowFrameSpec& spec, uint8_t dscp) {
  std::vector<uint8_t> f(wire::kRoceCnpFrameBytes);
  wire::write_roce_cnp(f.data(), wire::RoceCnpSpec{.src_mac = spec.dst_mac,
                                                   .dst_mac = spec.src_mac,
                                                   .src_ip = spec.dst_ip,
                                                   .dst_ip = spec.src_ip,
                                                   .dscp = dscp,
                                                   .udp_source_port = flow_source_port(spec.flow),
                                                   .dest_qp = spec.flow});
  return f;
}

void stamp_flow_sequence(uint8_t* frame, uint64_t sequence) {
  store_be64(frame + kSequenceOffset, sequence);
}

void stamp_flow_send_time(uint8_t* frame, uint64_t ticks) {
  store_be64(frame + kSendTimeOffset, ticks);
}

uint64_t read_flow_send_time(const uint8_t* frame) {
  return static_cast<uint64_t>(wire::load_be32(frame + kSendTimeOffset)) << 32 |
         wire::load_be32(frame + kSendTimeOffset + 4);
}

std::optional<FlowStamp> read_flow_stamp(const uint8_t* data, size_t length) {
  return read_stamp(data, length, kMagic);
}

std::optional<FlowStamp> read_flow_ack(const uint8_t* data, size_t length) {
  return read_stamp(data, length, kAckMagic);
}

}  // namespace fcswitch::lab

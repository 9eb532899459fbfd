#include "frame_builder.h"

#include "wire/ether_type.h"
#include "wire/pfc_frame.h"

namespace fcswitch::traffic {

namespace {

void put_mac(Frame& f, uint64_t mac) {
  for (int i = 5; i >= 0; --i) f.push_back(static_cast<uint8_t>(mac >> (8 * i)));
}
void put16(Frame& f, uint16_t v) {
  f.push_back(static_cast<uint8_t>(v >> 8));
  f.push_back(static_cast<uint8_t>(v));
}

}  // namespace

Frame build_frame(const FrameSpec& spec) {
  Frame f;
  put_mac(f, spec.dst);
  put_mac(f, spec.src);
  if (spec.vlan_pcp) {
    put16(f, 0x8100);
    put16(f, static_cast<uint16_t>(*spec.vlan_pcp << 13 | 100));
  }
  switch (spec.l3) {
    case FrameSpec::L3::kIpv4: {
      put16(f, 0x0800);
      const size_t ip = f.size();
      f.resize(ip + 20, 0);
      f[ip] = 0x45;
      f[ip + 1] = static_cast<uint8_t>(spec.dscp << 2 | (spec.ecn & 3));
      const uint16_t total = static_cast<uint16_t>(spec.size - ip);
      f[ip + 2] = static_cast<uint8_t>(total >> 8);
      f[ip + 3] = static_cast<uint8_t>(total);
      f[ip + 8] = 64;   // TTL
      f[ip + 9] = 253;  // experimental protocol
      for (int i = 0; i < 4; ++i) {
        f[ip + 12 + i] = static_cast<uint8_t>(spec.src_ip >> (24 - 8 * i));
        f[ip + 16 + i] = static_cast<uint8_t>(spec.dst_ip >> (24 - 8 * i));
      }
      // Header checksum (RFC 791): one's complement of the one's-complement sum of the words.
      uint32_t sum = 0;
      for (size_t i = 0; i < 20; i += 2)
        sum += static_cast<uint32_t>(f[ip + i] << 8 | f[ip + i + 1]);
      while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
      f[ip + 10] = static_cast<uint8_t>(~sum >> 8);
      f[ip + 11] = static_cast<uint8_t>(~sum);
      break;
    }
    case FrameSpec::L3::kIpv6: {
      put16(f, 0x86DD);
      const size_t ip = f.size();
      f.resize(ip + 40, 0);
      const uint8_t traffic_class = static_cast<uint8_t>(spec.dscp << 2 | (spec.ecn & 3));
      f[ip] = static_cast<uint8_t>(0x60 | traffic_class >> 4);
      f[ip + 1] = static_cast<uint8_t>(traffic_class << 4);
      const uint16_t payload = static_cast<uint16_t>(spec.size - ip - 40);
      f[ip + 4] = static_cast<uint8_t>(payload >> 8);
      f[ip + 5] = static_cast<uint8_t>(payload);
      f[ip + 6] = 253;
      f[ip + 7] = 64;
      break;
    }
    case FrameSpec::L3::kOther:
      put16(f, spec.ether_type);
      break;
  }
  f.resize(spec.size - 4, 0);
  for (int i = 3; i >= 0; --i) f.push_back(static_cast<uint8_t>(spec.sequence >> (8 * i)));
  return f;
}

uint32_t sequence_of(const Frame& frame) {
  const size_t n = frame.size();
  return static_cast<uint32_t>(frame[n - 4]) << 24 | frame[n - 3] << 16 | frame[n - 2] << 8 |
         frame[n - 1];
}

Frame pfc_frame(uint64_t src) {
  wire::PfcFrame pause{wire::MacAddress{src}, 1u << 3, {}};
  pause.time[3] = 0xFFFF;
  Frame f(wire::kPfcFrameBytes);
  wire::encode_pfc(pause, wire::kEtherTypeMacControl, f.data());
  return f;
}

}  // namespace fcswitch::traffic

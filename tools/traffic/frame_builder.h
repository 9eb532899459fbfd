#pragma once
// Builds frames byte by byte for tests, the demo and benchmarks. Each data frame ends with a 4-byte
// sequence number so a test can follow it through the switch.

#include <cstdint>
#include <optional>

#include "pcap_file.h"

namespace fcswitch::traffic {

struct FrameSpec {
  uint64_t dst = 0;
  uint64_t src = 0;
  std::optional<uint8_t> vlan_pcp;  // add an 802.1Q tag (VID 100) with this PCP
  enum class L3 { kIpv4, kIpv6, kOther } l3 = L3::kIpv4;
  uint16_t ether_type = 0x88B6;  // for kOther
  uint8_t dscp = 0;
  uint32_t sequence = 0;
  uint32_t size = 64;   // total bytes (without FCS)
  uint8_t ecn = 0;      // the two low bits of the TOS / traffic class
  uint32_t src_ip = 0;  // IPv4 addresses (an ECMP group hashes them: topology/flow_hash.h)
  uint32_t dst_ip = 0;
};

Frame build_frame(const FrameSpec& spec);
uint32_t sequence_of(const Frame& frame);
// An 802.1Qbb PFC frame pausing priority 3 (what a downstream switch would send).
Frame pfc_frame(uint64_t src);

}  // namespace fcswitch::traffic

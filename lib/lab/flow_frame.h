#pragma once
// The frames a lab flow sends: Ethernet II, IPv4 (DSCP = the flow's class, header checksum
// set), UDP (checksum 0: none, RFC 768), and a payload that starts with a stamp the sink
// reads to account the flow:
//
//   42  magic     "FCLB"
//   46  flow id   uint32, big-endian
//   50  sequence  uint64, big-endian, from 0 per flow
//   58  zeros up to the frame's length (no FCS: the NIC adds it)
//
// A flow's frames differ only in the sequence, so the source builds one template per flow
// and stamps each copy.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "topology/flow_hash.h"
#include "wire/mac_address.h"

namespace fcswitch::lab {

inline constexpr uint32_t kFlowFrameMinBytes = 60;
inline constexpr uint16_t kFlowUdpPort = 9;  // discard (RFC 863): traffic nobody answers

struct FlowFrameSpec {
  wire::MacAddress src_mac, dst_mac;
  uint32_t src_ip = 0, dst_ip = 0;
  uint8_t dscp = 0;
  uint32_t flow = 0;
  uint32_t frame_bytes = 1514;  // at least kFlowFrameMinBytes
};

std::vector<uint8_t> make_flow_frame(const FlowFrameSpec& spec);

// 10.<node>.1 (node in the second and third octets): one IPv4 address per lab node.
constexpr uint32_t lab_node_ip(int node) {
  return 0x0A00'0001u | static_cast<uint32_t>(node) << 8;
}
// The 5-tuple ECMP hashes (switch/flow_key.h) for frames make_flow_frame makes from `spec`:
// UDP, a source port per flow.
topology::FiveTuple flow_five_tuple(const FlowFrameSpec& spec);
// Writes `sequence` into a frame made by make_flow_frame.
void stamp_flow_sequence(uint8_t* frame, uint64_t sequence);

struct FlowStamp {
  uint32_t flow = 0;
  uint64_t sequence = 0;
};
// The stamp of a frame of a lab flow; nullopt for anything else.
std::optional<FlowStamp> read_flow_stamp(const uint8_t* data, size_t length);

}  // namespace fcswitch::lab

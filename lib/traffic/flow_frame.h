#pragma once
// The frames a lab flow sends: Ethernet II, IPv4 (DSCP = the flow's class, header checksum
// set), UDP (checksum 0: none, RFC 768), and a payload that starts with a stamp the sink
// reads to account the flow:
//
//   42  magic     "FCLB"
//   46  flow id   uint32, big-endian
//   50  sequence  uint64, big-endian, from 0 per flow
//   58  send time uint64, big-endian, ticks of the lab's clock, in every frame of at least
//       kTimedFrameMinBytes (the sink's per-packet delay; TIMELY's ACKs echo it here)
//   66  zeros up to the frame's length (no FCS: the NIC adds it)
//
// A flow's frames differ only in the sequence, so the source builds one template per flow
// and stamps each copy.
//
// A flow with a reliable transport (window, or DCQCN with a window) is acknowledged by its
// sink with frames of the same layout going the other way (addresses and ports swapped), magic
// "FCLA" and, in the sequence field, the cumulative ACK: the next sequence the sink expects.
// DCQCN's congestion notifications are RoCEv2 CNPs (wire/roce_cnp.h), QP = flow id.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "topology/flow_hash.h"
#include "wire/flow_stamp.h"
#include "wire/mac_address.h"

namespace fcswitch::lab {

using wire::kFlowFrameMinBytes;
using wire::kTimedFrameMinBytes;
inline constexpr uint16_t kFlowUdpPort = 9;  // discard (RFC 863): traffic nobody answers

struct FlowFrameSpec {
  wire::MacAddress src_mac, dst_mac;
  uint32_t src_ip = 0, dst_ip = 0;
  uint8_t dscp = 0;
  uint32_t flow = 0;
  uint32_t frame_bytes = 1514;  // at least kFlowFrameMinBytes
  bool ecn_capable = false;     // ECT(0) in the IP header (RFC 3168): DCQCN's flows
};

std::vector<uint8_t> make_flow_frame(const FlowFrameSpec& spec);
// The template of the flow's ACKs, from its sink back to its source (kFlowFrameMinBytes, or
// kTimedFrameMinBytes to echo a send time; the ACK DSCP given, Not-ECT).
std::vector<uint8_t> make_ack_frame(const FlowFrameSpec& spec, uint8_t dscp, bool timed = false);
// The CNP the flow's sink sends its source (wire/roce_cnp.h).
std::vector<uint8_t> make_cnp_frame(const FlowFrameSpec& spec, uint8_t dscp);

// 10.<node>.1 (node in the second and third octets): one IPv4 address per lab node.
constexpr uint32_t lab_node_ip(int node) {
  return 0x0A00'0001u | static_cast<uint32_t>(node) << 8;
}
// The 5-tuple ECMP hashes (switch/flow_key.h) for frames make_flow_frame makes from `spec`:
// UDP, a source port per flow.
topology::FiveTuple flow_five_tuple(const FlowFrameSpec& spec);
// Writes `sequence` into a frame made by make_flow_frame (or the cumulative ACK into one made
// by make_ack_frame).
void stamp_flow_sequence(uint8_t* frame, uint64_t sequence);

struct FlowStamp {
  uint32_t flow = 0;
  uint64_t sequence = 0;
};
// Writes / reads the send time of a frame of at least kTimedFrameMinBytes (flow or ACK).
void stamp_flow_send_time(uint8_t* frame, uint64_t ticks);
uint64_t read_flow_send_time(const uint8_t* frame);

// The stamp of a frame of a lab flow; nullopt for anything else.
std::optional<FlowStamp> read_flow_stamp(const uint8_t* data, size_t length);
// The flow and cumulative ACK of a flow's ACK frame; nullopt for anything else.
std::optional<FlowStamp> read_flow_ack(const uint8_t* data, size_t length);

}  // namespace fcswitch::lab

#include "lab/lab_frame_capacity.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "core/traffic_class.h"

namespace fcswitch::lab {

LabFrameCapacity lab_frame_capacity(const LabScenario& scenario, uint32_t host_queue_frames) {
  LabFrameCapacity out;
  PriorityMask sent = 0;  // every priority a flow's frames carry, at any switch they cross
  std::vector<PriorityMask> sent_by(scenario.nodes.size(), 0);
  uint32_t frame_bytes = 0;
  for (const FlowSpec& flow : scenario.flows) {
    const auto bit = static_cast<PriorityMask>(1u << flow.priority);
    sent |= bit;
    if (flow.src >= 0) sent_by[static_cast<size_t>(flow.src)] |= bit;
    frame_bytes = frame_bytes ? std::min(frame_bytes, flow.frame_bytes) : flow.frame_bytes;
  }
  out.frame_bytes = frame_bytes ? frame_bytes : FlowSpec{}.frame_bytes;
  const uint64_t frame = out.frame_bytes;

  for (size_t i = 0; i < scenario.nodes.size(); ++i) {
    const LabNode& node = scenario.nodes[i];
    const config::SwitchConfig& c = node.config;
    const uint64_t ports = c.ports.size();
    const uint64_t tx_rings = ports * scenario.tx_ring_frames;
    if (node.host) {
      out.host_frames += tx_rings;
      out.host_frames += static_cast<uint64_t>(std::popcount(sent_by[i])) * host_queue_frames;
      continue;
    }
    // Tagger moves a frame to the priority of its new tag, any lossless one the switch has.
    const auto carried = static_cast<PriorityMask>(c.tagger ? sent | c.lossless_priorities : sent);
    const auto lossless = static_cast<PriorityMask>(carried & c.lossless_priorities);
    const bool lossy = (carried & ~c.lossless_priorities) != 0;
    const uint64_t ingress = ports * static_cast<uint64_t>(std::popcount(lossless)) *
                                 (c.buffer.lossless_ingress_bytes / frame) +
                             (lossy ? c.buffer.lossy_pool_bytes / frame : 0);
    const uint64_t egress =
        ports * static_cast<uint64_t>(std::popcount(carried)) * c.egress_queue_packets;
    out.switch_frames += std::min(ingress, egress) + tx_rings;
  }
  for (const LabLinkSpec& link : scenario.links) {
    const uint64_t wire_bits = link.rate_bps / 1'000'000'000 * link.delay_ns +
                               link.rate_bps % 1'000'000'000 * link.delay_ns / 1'000'000'000;
    out.wire_frames += 2 * ((wire_bits + 8 * frame - 1) / (8 * frame));
  }
  return out;
}

}  // namespace fcswitch::lab

#include "switch/switch_state.h"

#include <fmt/format.h>

#include "fc/control_message.h"
#include "pyrrha/pyrrha_message.h"

namespace fcswitch {

SwitchState::SwitchState(int num_ports, const std::string& name_prefix, unsigned fwd_ring_packets,
                         unsigned egress_queue_packets, bool ingress_lanes, PriorityMask pabo,
                         unsigned bounce_queue_packets, bool one_thread, int device_ports,
                         bool egress_rings_at_first_use)
    : ports(num_ports),
      lanes(ingress_lanes ? num_ports : 1),
      egress_enqueued(std::make_unique<OwnedCounter[]>(num_ports)),
      egress_dequeued(std::make_unique<OwnedCounter[]>(num_ports)),
      pabo_queues(pabo),
      ingress_occupancy(num_ports * kNumPriorities, one_thread ? 1 : num_ports),
      lossy_pool(1, one_thread ? 1 : num_ports),
      control_posted(std::make_unique<PostedCount[]>(num_ports)),
      received_blocks(std::make_unique<OwnedCounter[]>(num_ports * kNumPriorities)),
      last_arrival_ticks(std::make_unique<OwnedGauge[]>(num_ports * kNumPriorities)),
      feedback_bands(num_ports),
      name_prefix_(name_prefix),
      egress_queue_packets_(egress_queue_packets) {
  if (device_ports < 0) device_ports = num_ports;
  for (int p = 0; p < num_ports; ++p) {
    const bool device = p < device_ports;
    fwd_rings.push_back(
        device ? dpdk::make_spsc_ring(fmt::format("{}_rx{}", name_prefix, p), fwd_ring_packets)
               : dpdk::RingPtr{});
    auto& queues = egress_rings.emplace_back();
    for (int q = 0; q < kNumEgressQueues && device; ++q) {
      queues[q].resize(static_cast<size_t>(lanes));
      for (int lane = 0; lane < lanes && !egress_rings_at_first_use; ++lane)
        make_egress_ring(p, q, lane);
    }
    egress_depth.push_back(std::make_unique<ChargeReleaseCounters>(kNumEgressQueues, 1));
    auto& bounce = bounce_rings.emplace_back();
    for (int q = 0; q < kNumPriorities && device; ++q)
      if (has_priority(pabo, q))
        bounce[q] = dpdk::make_spsc_ring(fmt::format("{}_bq{}_{}", name_prefix, p, q),
                                         bounce_queue_packets);
    pabo_depth.push_back(
        std::make_unique<ChargeReleaseCounters>(pabo ? kNumEgressQueues * 4 : 0, 1));
    // Room for a few bursts of frames, each with a message for every priority.
    control_rings.push_back(device
                                ? dpdk::make_spsc_elem_ring(fmt::format("{}_ctl{}", name_prefix, p),
                                                            sizeof(fc::ControlMessage), 1024)
                                : dpdk::RingPtr{});
  }
}

void SwitchState::make_egress_ring(int port, int queue, int lane) {
  egress_rings[port][queue][lane] = dpdk::make_spsc_ring(
      fmt::format("{}_eq{}_{}_{}", name_prefix_, port, queue, lane), egress_queue_packets_);
}

void SwitchState::add_pyrrha_rings(const std::string& name_prefix) {
  // Room for every port's worth of messages from a few events (a MERGE or RESUME goes to every
  // ingress at once); FWD keeps what does not fit and tries again (PyrrhaQueues).
  for (int p = 0; p < ports; ++p)
    pyrrha_rings.push_back(dpdk::make_spsc_elem_ring(fmt::format("{}_pyr{}", name_prefix, p),
                                                     sizeof(pyrrha::Message), 1024));
}

void SwitchState::charge_pabo(const PacketMeta& meta, int egress_port, uint32_t packets) {
  const bool bounce = meta.pabo == static_cast<uint8_t>(PaboSubqueue::kBounce);
  ChargeReleaseCounters& pabo = *pabo_depth[egress_port];
  pabo.charge(pabo_slot(meta.egress_queue, bounce, false), packets);
  pabo.charge(pabo_slot(meta.egress_queue, bounce, true), meta.charged_bytes);
}

void SwitchState::release_pabo(const PacketMeta& meta, int egress_port, uint32_t packets) {
  const bool bounce = meta.pabo == static_cast<uint8_t>(PaboSubqueue::kBounce);
  ChargeReleaseCounters& pabo = *pabo_depth[egress_port];
  pabo.release(0, pabo_slot(meta.egress_queue, bounce, false), packets);
  pabo.release(0, pabo_slot(meta.egress_queue, bounce, true), meta.charged_bytes);
}

}  // namespace fcswitch

#include "traffic/traffic_host.h"

#include <rte_errno.h>
#include <rte_mbuf.h>

#include <fmt/format.h>

#include <bit>
#include <stdexcept>

#include "core/units.h"
#include "node/port_engines.h"
#include "switch/queued_flush.h"
#include "traffic/flow_frame.h"

namespace fcswitch::lab {

namespace {
constexpr unsigned kHostQueuePackets = 1024;  // per egress ring: the source keeps 64 ahead
}  // namespace

TrafficHost::TrafficHost(const LabNode& node, std::unique_ptr<PortIo> io, rte_mempool* data_pool,
                         rte_mempool* control_pool, const TickRate& ticks,
                         FlowReceivedRecords& received)
    : config_(node.config), control_pool_(control_pool), port_(std::move(io)) {
  const config::PortConfig& nic = config_.ports[HostSource::kNicPort];
  // Port 1 has no device: it is where the host's own flows enter its buffer.
  // PABO: a bounce queue for what comes back bounced, sent first (PABO §III, the host).
  state_ = std::make_unique<SwitchState>(
      2, config_.name, kHostQueuePackets, kHostQueuePackets, false, config_.pabo.priorities,
      std::bit_ceil(config_.pabo.settings.bounce_capacity_packets + 1), /*one_thread=*/false,
      /*device_ports=*/1, /*egress_rings_at_first_use=*/config_.rings_of_one_thread);
  state_->rewind_empty_rings = config_.rings_of_one_thread;
  rx_ = std::make_unique<RxTask>(
      node.name + ":rx", HostSource::kNicPort, *port_,
      // With [pyrrha], the switch's messages go on to the sink, for the host's paused roots.
      RxSettings{nic.control_ether_type, nic.flow_control.stage_opcode, nic.flow_control.trust,
                 config_.pyrrha.has_value()},
      *state_);
  sink_ = std::make_unique<HostSink>(node.name + ":sink", node.mac, *state_, config_.priority_maps,
                                     received, config_.pabo.settings.bounce_capacity_packets);
  source_ = std::make_unique<HostSource>(
      node.name + ":source", *state_, data_pool, ticks,
      shaping::WireFraming{nic.wire_overhead_bytes, kEthernetMinFrameBytes}, nic.rate_bps);
  sink_->set_source(source_.get());
  if (const auto& pyrrha = config_.pyrrha) {
    root_pauses_ = std::make_unique<pyrrha::HostRootPauses>(pyrrha->table);
    sink_->set_root_pauses(root_pauses_.get(), pyrrha->priority);
    source_->set_root_pauses(root_pauses_.get(), pyrrha->priority, pyrrha->stage_bytes);
  }
  tx_ = std::make_unique<TxTask>(node.name + ":tx", HostSource::kNicPort, *port_,
                                 /*pad_short_frames=*/true, nic.scheduler,
                                 make_tx_flow_control(nic, config_.buffer.lossless_ingress_bytes,
                                                      ticks, node.mac, control_pool_, node.name),
                                 *state_, nic.tx_burst);
}

TrafficHost::~TrafficHost() {
  rx_.reset();
  tx_.reset();
  source_.reset();
  sink_.reset();
  state_.reset();
  port_.reset();
}

std::vector<Task*> TrafficHost::tasks() {
  return {rx_.get(), sink_.get(), source_.get(), tx_.get()};
}

uint64_t TrafficHost::next_action_ticks(uint64_t now) const {
  return std::min(source_->next_event_ticks(now), tx_->next_action_ticks());
}

uint64_t TrafficHost::flush() {
  return flush_queued(*state_, nullptr, {tx_.get()}, shutdown_drops_);
}

}  // namespace fcswitch::lab

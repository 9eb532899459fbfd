#pragma once
// A host in the lab: one port — the lab's rings, like a switch port's, with the same RX and TX
// tasks and the same flow-control engines (a host paused by PFC stops, a host told a GFC
// stage slows down, CBFC credits gate it) — its flows' generators (HostSource) and its sink
// (HostSink). Built from a one-port fcswitch config (LabNode::config). With [pyrrha], the
// congestion roots its switch paused (Pyrrha §4.4): the sink applies the switch's messages to
// them, the source holds the flows whose paths cross them.

#include <rte_mempool.h>

#include <memory>
#include <string>
#include <vector>

#include "pyrrha/host_root_pauses.h"
#include "scenario/lab_scenario.h"
#include "switch/drop_counters.h"
#include "switch/port_io.h"
#include "switch/rx_task.h"
#include "switch/switch_state.h"
#include "switch/tx_task.h"
#include "traffic/host_sink.h"
#include "traffic/host_source.h"

namespace fcswitch::lab {

class TrafficHost {
 public:
  // `io`: the host's NIC (the lab's rings); data frames come from `data_pool`, its own frames
  // (PFC, credits) from `control_pool` (both the lab's); `received` is the lab's per-flow
  // record (see HostSink).
  TrafficHost(const LabNode& node, std::unique_ptr<PortIo> io, rte_mempool* data_pool,
              rte_mempool* control_pool, const TickRate& ticks, FlowReceivedRecords& received);
  ~TrafficHost();
  TrafficHost(const TrafficHost&) = delete;
  TrafficHost& operator=(const TrafficHost&) = delete;

  std::vector<Task*> tasks();
  HostSource& source() { return *source_; }
  const HostSource& source() const { return *source_; }
  const HostSink& sink() const { return *sink_; }
  HostSink& sink() { return *sink_; }
  const RxTask& rx() const { return *rx_; }
  const TxTask& tx() const { return *tx_; }
  // Its link came back: its engines say their state again (fc::FeedbackGenerator).
  void link_restored() { tx_->link_restored(); }
  const config::SwitchConfig& config() const { return config_; }
  // Its buffer: the NIC port's ingress occupancy (port 0) is what its feedback generators watch.
  const SwitchState& state() const { return *state_; }
  // Pyrrha: the roots that hold its flows; null unless its config has [pyrrha].
  const pyrrha::HostRootPauses* root_pauses() const { return root_pauses_.get(); }
  // The earliest time the host acts by itself (flows, its engines); for the virtual clock.
  uint64_t next_action_ticks(uint64_t now_ticks) const;
  // Tasks stopped: frees what the host still holds; returns how many.
  uint64_t flush();

 private:
  config::SwitchConfig config_;
  rte_mempool* control_pool_;  // the lab's
  std::unique_ptr<PortIo> port_;
  std::unique_ptr<SwitchState> state_;
  std::unique_ptr<RxTask> rx_;
  std::unique_ptr<pyrrha::HostRootPauses> root_pauses_;  // outlives the sink and the source
  std::unique_ptr<HostSink> sink_;
  std::unique_ptr<HostSource> source_;
  std::unique_ptr<TxTask> tx_;
  DropCounters shutdown_drops_{2};
};

}  // namespace fcswitch::lab

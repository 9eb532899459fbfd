#pragma once
// fchost's host (docs/architecture.md: hosts are tasks too): the lab's host (lab::TrafficHost — its
// RX and TX tasks and flow-control engines, flow generators and sink) on a DPDK ethdev instead of
// the lab's rings, with pools of its own. It pauses on PFC, slows on GFC stages and obeys CBFC
// credits exactly as a lab host does, because it is one.

#include <rte_mempool.h>

#include <memory>
#include <vector>

#include "core/task.h"
#include "core/tick_rate.h"
#include "dpdk/eth_port.h"
#include "host/host_program_config.h"
#include "traffic/host_sink.h"
#include "traffic/host_source.h"
#include "traffic/traffic_host.h"

namespace fcswitch::host {

class PortHost {
 public:
  // EAL is up; `tick_hz`: the rate of the clock its tasks are polled with. Throws
  // std::runtime_error (a device the EAL did not make, a pool it cannot have).
  PortHost(const HostProgramConfig& config, uint64_t tick_hz);
  ~PortHost();
  PortHost(const PortHost&) = delete;
  PortHost& operator=(const PortHost&) = delete;

  // One lcore polls them, in this order (RX, sink, source, TX: as the lab does).
  std::vector<Task*> tasks() { return host_->tasks(); }

  const HostProgramConfig& config() const { return config_; }
  const lab::TrafficHost& host() const { return *host_; }
  const TickRate& ticks() const { return ticks_; }
  wire::MacAddress mac() const { return node_.mac; }
  // Per configured flow (config().flows order): what its source sent.
  const lab::FlowSentRecords& sent() const { return sent_; }
  // Per flow id below config().flow_ids: what the sink received.
  const lab::FlowReceivedRecords& received() const { return received_; }
  uint64_t nic_rx_dropped() const { return port_->nic_rx_dropped(); }
  uint16_t eth_port_id() const { return port_->id(); }
  bool redials() const { return port_->redials(); }
  // Any thread: its link came back (dpdk::LinkWatch); its engines say their state again.
  void link_restored() { host_->link_restored(); }

  // Control thread, with the lcore stopped: frees what the host still holds (counted as
  // shutdown_flush), then stops the port. Returns how many were freed.
  uint64_t shut_down();
  unsigned pool_size() const;
  unsigned pool_in_use() const;

 private:
  HostProgramConfig config_;
  lab::LabNode node_;
  TickRate ticks_;
  rte_mempool* data_pool_ = nullptr;
  rte_mempool* control_pool_ = nullptr;
  std::unique_ptr<dpdk::EthPort> port_;
  lab::FlowSentRecords sent_;
  lab::FlowReceivedRecords received_;
  std::unique_ptr<lab::TrafficHost> host_;
};

}  // namespace fcswitch::host

#include "host/port_host.h"

#include <rte_errno.h>
#include <rte_mbuf.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

#include "switch/control_pool.h"
#include "switch/ethdev_port_io.h"
#include "traffic/flow_frame.h"

namespace fcswitch::host {

namespace {
// The host's own frames (PFC, credits): a few at a time, as a switch port's.
constexpr unsigned kControlMbufs = 1023;
}  // namespace

PortHost::PortHost(const HostProgramConfig& config, uint64_t tick_hz)
    : config_(config), ticks_{tick_hz}, sent_(config.flows.size()), received_(config.flow_ids) {
  const config::PortConfig& nic = config_.node.ports.front();
  if (!dpdk::device_exists(nic)) throw std::runtime_error(dpdk::missing_device_message(nic));
  const std::string& name = config_.node.name;
  // Every frame the host sends whole in one mbuf (traffic/host_egress.h): jumbo flows too.
  uint32_t largest_frame_bytes = 0;
  for (const HostFlow& flow : config_.flows)
    largest_frame_bytes = std::max(largest_frame_bytes, flow.spec.frame_bytes);
  const auto data_room = static_cast<uint16_t>(
      std::max<uint32_t>(RTE_MBUF_DEFAULT_BUF_SIZE, RTE_PKTMBUF_HEADROOM + largest_frame_bytes));
  data_pool_ = rte_pktmbuf_pool_create((name + "_pool").c_str(), config_.node.mbufs,
                                       config_.node.mbuf_cache, 0, data_room,
                                       static_cast<int>(rte_socket_id()) < 0 ? 0 : rte_socket_id());
  if (!data_pool_)
    throw std::runtime_error(
        fmt::format("mempool of {} mbufs: {}", config_.node.mbufs, rte_strerror(rte_errno)));
  control_pool_ = create_control_pool(name + "_ctlpool", kControlMbufs, 32);
  port_ = std::make_unique<dpdk::EthPort>(nic, data_pool_);

  node_.name = name;
  node_.host = true;
  node_.config = config_.node;
  // Its frames leave from the port's address unless the config gives one (a testbed NIC
  // runs promiscuous: dpdk/eth_port.cc).
  node_.mac = nic.mac ? *nic.mac : port_->mac();
  host_ = std::make_unique<lab::TrafficHost>(node_, std::make_unique<EthdevPortIo>(port_->id()),
                                             data_pool_, control_pool_, ticks_, received_);
  for (size_t i = 0; i < config_.flows.size(); ++i) {
    const HostFlow& flow = config_.flows[i];
    const lab::FlowFrameSpec frames{node_.mac,
                                    flow.to_mac,
                                    config_.ip,
                                    flow.to_ip,
                                    flow.spec.dscp,
                                    static_cast<uint32_t>(flow.spec.id),
                                    flow.spec.frame_bytes,
                                    flow.spec.transport == lab::FlowTransport::kDcqcn};
    std::vector<pyrrha::RootId> path;
    for (const config::PyrrhaHop& hop : flow.pyrrha_path) path.push_back({hop.switch_id, hop.port});
    host_->source().add_flow(flow.spec, lab::make_flow_frame(frames), sent_[i], config_.transport,
                             std::move(path));
  }
  for (const HostReceive& receive : config_.receives)
    host_->sink().expect_transport_flow(receive.id, receive.transport, config_.transport,
                                        data_pool_, ticks_);
}

PortHost::~PortHost() {
  host_.reset();
  if (port_) port_->stop();
  port_.reset();
  rte_mempool_free(control_pool_);
  rte_mempool_free(data_pool_);
}

uint64_t PortHost::shut_down() {
  const uint64_t freed = host_->flush();
  port_->stop();
  return freed;
}

unsigned PortHost::pool_size() const {
  return data_pool_->size + control_pool_->size;
}

unsigned PortHost::pool_in_use() const {
  return rte_mempool_in_use_count(data_pool_) + rte_mempool_in_use_count(control_pool_);
}

}  // namespace fcswitch::host

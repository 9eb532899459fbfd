#include "switch/switch_node.h"

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

namespace fcswitch {

namespace {
constexpr uint32_t kFibEntries = 16384;
// A few frames per port in flight at a time; the NIC's TX ring may hold some for a while.
constexpr uint32_t kControlMbufs = 4095;
}  // namespace

SwitchNode::SwitchNode(const config::SwitchConfig& config, uint64_t tick_hz)
    : config_(config),
      ticks_{tick_hz ? tick_hz : rte_get_tsc_hz()},
      shutdown_drops_(static_cast<int>(config.ports.size())) {
  const std::string prefix = config.name;
  const int socket = static_cast<int>(rte_socket_id());
  pool_ = rte_pktmbuf_pool_create((prefix + "_pool").c_str(), config.mbufs, config.mbuf_cache, 0,
                                  RTE_MBUF_DEFAULT_BUF_SIZE, socket < 0 ? 0 : socket);
  if (!pool_)
    throw std::runtime_error(
        fmt::format("mempool of {} mbufs: {}", config.mbufs, rte_strerror(rte_errno)));

  // Feedback must never wait for an mbuf that lossless data holds: its own small pool.
  control_pool_ = rte_pktmbuf_pool_create((prefix + "_ctlpool").c_str(), kControlMbufs, 32, 0,
                                          RTE_MBUF_DEFAULT_BUF_SIZE, socket < 0 ? 0 : socket);
  if (!control_pool_)
    throw std::runtime_error(fmt::format("control mempool: {}", rte_strerror(rte_errno)));

  for (const auto& port : config.ports)
    ports_.push_back(std::make_unique<dpdk::EthPort>(port, pool_));
  const int n = static_cast<int>(ports_.size());
  state_ = std::make_unique<SwitchState>(n, prefix, config.fwd_ring_packets,
                                         config.egress_queue_packets);
  fib_ = std::make_unique<L2Fib>(prefix + "_fib", kFibEntries);
  for (const auto& entry : config.fib) fib_->add_static(entry.mac, entry.port);

  for (int p = 0; p < n; ++p) {
    const auto& port = config.ports[p];
    rx_tasks_.push_back(
        std::make_unique<RxTask>("rx:" + port.name, p, ports_[p]->id(),
                                 RxSettings{port.control_ether_type, port.flow_control.stage_opcode,
                                            port.flow_control.trust},
                                 *state_));
    tx_tasks_.push_back(std::make_unique<TxTask>("tx:" + port.name, p, ports_[p]->id(),
                                                 port.scheduler, make_flow_control(p), *state_));
  }
  FwdSettings fwd{config.priority_maps, config.lossless_priorities, config.buffer,
                  config.mac_learning};
  fwd_ = std::make_unique<FwdTask>(fwd, *state_, *fib_);

  if (static_cast<uint64_t>(config.mbufs) * 60 < config.buffer.lossless_ingress_bytes)
    spdlog::warn(
        "{} mbufs hold less than one lossless ingress buffer of minimum-size frames ({} bytes)",
        config.mbufs, config.buffer.lossless_ingress_bytes);
}

TxFlowControl SwitchNode::make_flow_control(int p) const {
  const config::PortConfig& port = config_.ports[p];
  TxFlowControl flow;
  flow.watchdog = port.flow_control.watchdog;
  flow.ticks = ticks_;
  flow.mac = ports_[p]->mac();
  flow.control_ether_type = port.control_ether_type;
  flow.control_pool = control_pool_;
  flow.stage_opcode = port.flow_control.stage_opcode;
  fc::EngineContext context;
  context.link = fc::LinkParams{port.rate_bps, port.flow_control.response_time_ns,
                                config_.buffer.lossless_ingress_bytes};
  context.ticks = ticks_;
  context.stage_opcode = port.flow_control.stage_opcode;
  context.framing = shaping::WireFraming{port.wire_overhead_bytes, kEthernetMinFrameBytes};
  context.limiter_catch_up_ticks = ticks_.from_ns(port.flow_control.limiter_catch_up_ns);
  if (port.rate_limit_bps) {
    flow.pacer.emplace(port.rate_bps, port.rate_limit_bps, ticks_, context.framing,
                       context.limiter_catch_up_ticks);
    spdlog::info("port {}: paced at {} b/s of {} b/s", port.name, port.rate_limit_bps,
                 port.rate_bps);
  }
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    const config::PriorityFlowControl& chosen = port.flow_control.priorities[prio];
    if (!chosen.engine) continue;
    context.priority = prio;
    flow.engines[prio] = chosen.engine->make(*chosen.params, context);
    spdlog::info("port {} priority {}: flow control {}", port.name, prio, chosen.engine->name);
  }
  return flow;
}

SwitchNode::~SwitchNode() {
  stop_ports();
  // Tasks and rings before the pool they hold mbufs of.
  rx_tasks_.clear();
  tx_tasks_.clear();
  fwd_.reset();
  fib_.reset();
  state_.reset();
  rte_mempool_free(pool_);
  rte_mempool_free(control_pool_);
}

uint64_t SwitchNode::next_action_ticks() const {
  uint64_t next = kNeverTicks;
  for (const auto& tx : tx_tasks_) next = std::min(next, tx->next_action_ticks());
  return next;
}

Task* SwitchNode::task_for(const config::TaskRef& ref) const {
  switch (ref.kind) {
    case config::TaskKind::kRx:
      return rx_tasks_[ref.port].get();
    case config::TaskKind::kTx:
      return tx_tasks_[ref.port].get();
    case config::TaskKind::kFwd:
      return fwd_.get();
  }
  return nullptr;
}

std::vector<std::vector<Task*>> SwitchNode::lcore_tasks() const {
  std::vector<std::vector<Task*>> lcores;
  for (const auto& refs : config_.lcores) {
    auto& tasks = lcores.emplace_back();
    for (const auto& ref : refs) tasks.push_back(task_for(ref));
  }
  return lcores;
}

SwitchProgress SwitchNode::progress() const {
  SwitchProgress p;
  p.empty = true;
  for (int port = 0; port < ports(); ++port) {
    // Data only: periodic credit frames between idle switches are not progress.
    p.work += rx_tasks_[port]->data_packets();
    p.empty &= rte_ring_empty(state_->fwd_rings[port].get()) != 0;
    for (const auto& ring : state_->egress_rings[port]) p.empty &= rte_ring_empty(ring.get()) != 0;
    p.empty &= tx_tasks_[port]->held() == 0;
    for (int q = 0; q < kNumEgressQueues; ++q) p.work += tx_tasks_[port]->packets(q);
  }
  p.work += fwd_->processed() + total_drops();
  for (int port = 0; port < ports(); ++port) p.work -= fwd_->credit_frames(port);
  for (const auto& t : rx_tasks_) p.task_polls.push_back(t->polls());
  p.task_polls.push_back(fwd_->polls());
  for (const auto& t : tx_tasks_) p.task_polls.push_back(t->polls());
  return p;
}

bool SwitchNode::settled(const SwitchProgress& before, const SwitchProgress& after) {
  if (!before.empty || !after.empty || before.work != after.work) return false;
  for (size_t i = 0; i < before.task_polls.size(); ++i)
    if (after.task_polls[i] < before.task_polls[i] + 2) return false;
  return true;
}

uint64_t SwitchNode::flush() {
  uint64_t flushed = 0;
  void* pkts[512];  // more than a TX task can hold (32 pending + 9 queue heads of 32)
  auto drop_all = [&](int port, unsigned count) {
    shutdown_drops_.add(port, DropReason::kShutdownFlush, count);
    rte_pktmbuf_free_bulk(reinterpret_cast<rte_mbuf**>(pkts), count);
    flushed += count;
  };
  for (int port = 0; port < ports(); ++port) {
    while (unsigned n = rte_ring_dequeue_burst(state_->fwd_rings[port].get(), pkts, 512, nullptr))
      drop_all(port, n);
    for (const auto& ring : state_->egress_rings[port])
      while (unsigned n = rte_ring_dequeue_burst(ring.get(), pkts, 512, nullptr)) drop_all(port, n);
    while (unsigned n = tx_tasks_[port]->take_held(reinterpret_cast<rte_mbuf**>(pkts), 512))
      drop_all(port, n);
  }
  return flushed;
}

void SwitchNode::stop_ports() {
  for (auto& port : ports_) port->stop();
}

uint64_t SwitchNode::drops(int port, DropReason reason) const {
  uint64_t sum = fwd_->drops().read(port, reason) + shutdown_drops_.read(port, reason);
  for (const auto& rx : rx_tasks_) sum += rx->drops().read(port, reason);
  for (const auto& tx : tx_tasks_) sum += tx->drops().read(port, reason);
  return sum;
}

uint64_t SwitchNode::total_drops() const {
  uint64_t sum = fwd_->drops().total() + shutdown_drops_.total();
  for (const auto& rx : rx_tasks_) sum += rx->drops().total();
  for (const auto& tx : tx_tasks_) sum += tx->drops().total();
  return sum;
}

unsigned SwitchNode::mempool_size() const {
  return pool_->size + control_pool_->size;
}
unsigned SwitchNode::mempool_in_use() const {
  return rte_mempool_in_use_count(pool_) + rte_mempool_in_use_count(control_pool_);
}

}  // namespace fcswitch

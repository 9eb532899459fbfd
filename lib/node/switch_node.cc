#include "node/switch_node.h"

#include "node/config_path_oracle.h"

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "node/port_engines.h"
#include "switch/control_pool.h"
#include "switch/ethdev_port_io.h"
#include "switch/queued_flush.h"

namespace fcswitch {

namespace {
// A few frames per port in flight at a time; a NIC's TX ring may hold some for a while.
constexpr uint32_t kControlMbufs = 4095;

// A seed of draws from the switch's name (FNV-1a), so that each switch of a lab draws its own.
uint64_t name_seed(std::string_view name) {
  uint64_t seed = 0xcbf29ce484222325ull;
  for (const char c : name) seed = (seed ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return seed;
}
}  // namespace

SwitchNode::SwitchNode(const config::SwitchConfig& config, uint64_t tick_hz,
                       std::shared_ptr<const PyrrhaPathOracle> pyrrha_oracle)
    : config_(config),
      ticks_{tick_hz ? tick_hz : rte_get_tsc_hz()},
      pyrrha_oracle_(std::move(pyrrha_oracle)),
      shutdown_drops_(static_cast<int>(config.ports.size())) {
  // Before any memory is taken: a missing device is the problem to report, not what follows.
  for (const auto& port : config.ports)
    if (!dpdk::device_exists(port)) throw std::runtime_error(dpdk::missing_device_message(port));
  create_pools();
  for (const auto& port : config.ports) {
    eth_ports_.push_back(std::make_unique<dpdk::EthPort>(port, pool_));
    const dpdk::EthPort& eth = *eth_ports_.back();
    ports_.push_back(NodePort{std::make_unique<EthdevPortIo>(eth.id()), eth.mac(),
                              eth.profile().pads_short_frames, eth.mtu()});
  }
  build();
}

SwitchNode::SwitchNode(const config::SwitchConfig& config, uint64_t tick_hz,
                       std::vector<NodePort> ports, rte_mempool* shared_control_pool,
                       std::shared_ptr<const PyrrhaPathOracle> pyrrha_oracle)
    : config_(config),
      ticks_{tick_hz ? tick_hz : rte_get_tsc_hz()},
      control_pool_(shared_control_pool),
      owns_control_pool_(false),
      ports_(std::move(ports)),
      pyrrha_oracle_(std::move(pyrrha_oracle)),
      shutdown_drops_(static_cast<int>(config.ports.size())) {
  if (ports_.size() != config.ports.size())
    throw std::runtime_error(fmt::format("switch {}: {} ports configured, {} given", config.name,
                                         config.ports.size(), ports_.size()));
  build();
}

void SwitchNode::create_pools() {
  const std::string prefix = config_.name;
  const int socket = static_cast<int>(rte_socket_id());
  pool_ = rte_pktmbuf_pool_create((prefix + "_pool").c_str(), config_.mbufs, config_.mbuf_cache, 0,
                                  RTE_MBUF_DEFAULT_BUF_SIZE, socket < 0 ? 0 : socket);
  if (!pool_)
    throw std::runtime_error(
        fmt::format("mempool of {} mbufs: {}", config_.mbufs, rte_strerror(rte_errno)));
  control_pool_ = create_control_pool(prefix + "_ctlpool", kControlMbufs, 32);
}

void SwitchNode::build() {
  const config::SwitchConfig& config = config_;
  const std::string prefix = config.name;
  const int n = static_cast<int>(ports_.size());
  budget_ = std::make_unique<ResponseTimeBudget>(n);
  // Run-to-completion where the layout allows: the RX tasks on FWD's lcore hand it their
  // bursts directly; the others, on lcores of their own, through their rings. (The lab's
  // switches too, on their compact layout: one thread polls RX then FWD, and their results are
  // byte for byte those of the ring, with a few cache lines fewer a hop.)
  std::vector<bool> rx_hands_to_fwd(static_cast<size_t>(n));
  for (const auto& lcore : config.lcores) {
    const auto has_fwd = [](const config::TaskRef& t) { return t.kind == config::TaskKind::kFwd; };
    if (std::none_of(lcore.begin(), lcore.end(), has_fwd)) continue;
    for (const config::TaskRef& task : lcore)
      if (task.kind == config::TaskKind::kRx)
        rx_hands_to_fwd[static_cast<size_t>(task.port)] = true;
  }
  // The lab: one thread at both ends of every ring, and the only reader of its counts.
  const bool rings_of_one_thread = config.rings_of_one_thread && config.lcores.size() == 1;
  // Where every RX hands its bursts to FWD, the FWD rings stay empty: the smallest there is
  // (the lab's thousands of ports: a page each otherwise).
  const bool fwd_rings_unused =
      std::all_of(rx_hands_to_fwd.begin(), rx_hands_to_fwd.end(), [](bool b) { return b; });
  state_ = std::make_unique<SwitchState>(
      n, prefix, fwd_rings_unused ? 1 : config.fwd_ring_packets, config.egress_queue_packets,
      config.queueing == config::Queueing::kInputFair, config.pabo.priorities,
      std::bit_ceil(config.pabo.settings.bounce_capacity_packets + 1),
      /*one_thread=*/config.lcores.size() == 1, /*device_ports=*/-1,
      /*egress_rings_at_first_use=*/rings_of_one_thread);
  state_->rewind_empty_rings = rings_of_one_thread;
  if (config.count_queued_from) state_->count_queued_from();
  fib_ = std::make_unique<L2Fib>(prefix + "_fib", config.fib_entries);
  FwdSettings fwd;
  fwd.priority_maps = config.priority_maps;
  fwd.lossless_priorities = config.lossless_priorities;
  fwd.buffer = config.buffer;
  fwd.mac_learning = config.mac_learning;
  fwd.next_hop = {.ecmp_groups = install_fib(config.fib),
                  .ecmp_seed = config.ecmp_seed,
                  .decrement_ttl = config.decrement_ttl};
  if (config.queueing == config::Queueing::kInputHol)
    fwd.input_queued =
        InputCrossbarSettings{.input_turns = config.crossbar == config::Crossbar::kInputTurns};
  for (int p = 0; p < n; ++p) fwd.max_frame_bytes.push_back(ports_[p].mtu + kEthernetHeaderBytes);
  // Each switch draws its own bounces and marks: the seed, or one from its name.
  fwd.pabo = {.priorities = config.pabo.priorities,
              .bounce = config.pabo.settings,
              .seed = config.pabo.seed ? config.pabo.seed : name_seed(config.name)};
  for (const auto& port : config.ports) fwd.ecn.ports.push_back(port.ecn);
  fwd.ecn.seed = config.ecn.seed ? config.ecn.seed : name_seed(config.name + "/ecn");
  if (config.pyrrha) {
    // Pyrrha §4.2 needs each packet's onward path: the lab's routes predict it; fcswitch has
    // its config's table ([[pyrrha.paths]]).
    if (!pyrrha_oracle_) {
      auto table = std::make_shared<ConfigPathOracle>(*config.pyrrha, n);
      spdlog::info(
          "{}: Pyrrha's onward paths from [[pyrrha.paths]]: {} (egress, destination) "
          "pairs, {} host ports",
          config.name, table->paths(), config.pyrrha->host_ports.size());
      pyrrha_oracle_ = std::move(table);
    }
    state_->add_pyrrha_rings(prefix);
    fwd.pyrrha =
        PyrrhaStageSettings{.pyrrha = *config.pyrrha, .oracle = pyrrha_oracle_, .host_ports = {}};
    for (int p = 0; p < n; ++p) fwd.pyrrha->host_ports.push_back(pyrrha_oracle_->faces_host(p));
    const config::PyrrhaSettings& py = *config.pyrrha;
    spdlog::info(
        "{}: Pyrrha on priority {} as switch {}: K_pause {} bytes, K_resume {} bytes "
        "(one-hop BDP {} bytes), {} isolation queues per port",
        config.name, py.priority, py.switch_id, py.table.k_pause_bytes, py.table.k_resume_bytes,
        py.one_hop_bdp_bytes, py.table.max_isolation_queues);
  }

  for (int p = 0; p < n; ++p) {
    const auto& port = config.ports[p];
    rx_tasks_.push_back(
        std::make_unique<RxTask>("rx:" + port.name, p, *ports_[p].io,
                                 RxSettings{port.control_ether_type, port.flow_control.stage_opcode,
                                            port.flow_control.trust, config.pyrrha.has_value()},
                                 *state_));
    TxFlowControl flow = make_tx_flow_control(port, config.buffer.lossless_ingress_bytes, ticks_,
                                              ports_[p].mac, control_pool_, config.name);
    if (config.pyrrha) flow.pyrrha_priority = config.pyrrha->priority;
    tx_tasks_.push_back(std::make_unique<TxTask>("tx:" + port.name, p, *ports_[p].io,
                                                 !ports_[p].pads_short_frames, port.scheduler,
                                                 std::move(flow), *state_, port.tx_burst));
  }
  if (config.tagger) {
    std::vector<std::string> problems;  // none: the config was validated with the same build
    auto table = tagger::TagRewriteTable::build(static_cast<int>(config.ports.size()),
                                                config.tagger->rules, problems);
    if (!table) throw std::runtime_error("tagger rules: " + problems.front());
    fwd.tagger = std::make_shared<TaggerStage>(*config.tagger, std::move(*table));
  }
  fwd_ = std::make_unique<FwdTask>(fwd, *state_, *fib_);
  for (int p = 0; p < n; ++p)
    if (rx_hands_to_fwd[static_cast<size_t>(p)]) rx_tasks_[p]->hand_to(&fwd_->handoff_from(p));

  if (!config.mbufs_from_links &&
      static_cast<uint64_t>(config.mbufs) * 60 < config.buffer.lossless_ingress_bytes)
    spdlog::warn(
        "{} mbufs hold less than one lossless ingress buffer of minimum-size frames ({} bytes)",
        config.mbufs, config.buffer.lossless_ingress_bytes);
  // Installed: the L2Fib holds the entries now (a lab switch's thousand need not stay twice).
  config_.fib = {};
}

std::vector<std::vector<uint16_t>> SwitchNode::install_fib(
    const std::vector<config::FibEntry>& entries) {
  std::vector<std::vector<uint16_t>> groups;
  for (const auto& entry : entries) {
    if (entry.group.empty()) {
      fib_->add_static(entry.mac, entry.port);
      continue;
    }
    // Hosts reached through the same ports share one group.
    const std::vector<uint16_t> group(entry.group.begin(), entry.group.end());
    auto same = std::find(groups.begin(), groups.end(), group);
    if (same == groups.end()) same = groups.insert(same, group);
    fib_->add_static_group(entry.mac, static_cast<int>(same - groups.begin()));
  }
  return groups;
}

void SwitchNode::replace_fib(const std::vector<config::FibEntry>& entries) {
  fib_->clear();
  fwd_->set_ecmp_groups(install_fib(entries));
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
  if (owns_control_pool_) rte_mempool_free(control_pool_);
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
    p.held += rte_ring_count(state_->fwd_rings[port].get());
    for (const auto& lanes : state_->egress_rings[port])
      for (const auto& ring : lanes)
        if (ring) p.held += rte_ring_count(ring.get());
    p.held += tx_tasks_[port]->held();
    p.held_control += tx_tasks_[port]->held_control();
    // Pyrrha's messages FWD sent and TX has not framed yet.
    if (!state_->pyrrha_rings.empty()) {
      const unsigned messages = rte_ring_count(state_->pyrrha_rings[port].get());
      p.held += messages;
      p.held_control += messages;
    }
    for (int q = 0; q < kNumEgressQueues; ++q) p.work += tx_tasks_[port]->packets(q);
  }
  p.held += fwd_->held() + fwd_->handed_over();
  p.empty = p.held == 0;
  p.work += fwd_->processed() + total_drops();
  // Frames a stopped RX frees as they come (an upstream that goes on sending) are not the
  // switch's own motion: the drain settles while they arrive.
  for (int port = 0; port < ports(); ++port) p.work -= drops(port, DropReason::kAfterStop);
  for (int port = 0; port < ports(); ++port) p.work -= fwd_->credit_frames(port);
  for (const auto& t : rx_tasks_) p.task_polls.push_back(t->polls());
  p.task_polls.push_back(fwd_->polls());
  for (const auto& t : tx_tasks_) p.task_polls.push_back(t->polls());
  return p;
}

SwitchNode::Motion SwitchNode::motion(const SwitchProgress& before, const SwitchProgress& after) {
  if (before.work != after.work) return Motion::kMoved;
  for (size_t i = 0; i < before.task_polls.size(); ++i)
    if (after.task_polls[i] < before.task_polls[i] + 2) return Motion::kTooSoon;
  return Motion::kStill;
}

std::vector<uint64_t> SwitchNode::take_recent_poll_gaps_ns() {
  const uint64_t fwd_gap = fwd_->take_recent_longest_poll_gap();
  std::vector<uint64_t> gaps;
  for (int port = 0; port < ports(); ++port)
    gaps.push_back(ticks_.to_ns(std::max({fwd_gap, rx_tasks_[port]->take_recent_longest_poll_gap(),
                                          tx_tasks_[port]->take_recent_longest_poll_gap()})));
  return gaps;
}

bool SwitchNode::settled(const SwitchProgress& before, const SwitchProgress& after) {
  return before.empty && after.empty && motion(before, after) == Motion::kStill;
}

uint64_t SwitchNode::flush() {
  std::vector<TxTask*> tx;
  for (const auto& t : tx_tasks_) tx.push_back(t.get());
  return flush_queued(*state_, fwd_.get(), tx, shutdown_drops_);
}

unsigned SwitchNode::fwd_ring_frames(int port) const {
  return rte_ring_count(state_->fwd_rings[port].get());
}

void SwitchNode::stop_ports() {
  for (auto& port : eth_ports_) port->stop();
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
  return (pool_ ? pool_->size : 0) + control_pool_->size;
}
unsigned SwitchNode::mempool_in_use() const {
  return (pool_ ? rte_mempool_in_use_count(pool_) : 0) + rte_mempool_in_use_count(control_pool_);
}

}  // namespace fcswitch

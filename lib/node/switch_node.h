#pragma once
// One switch: its mempool, ports, rings, FIB and tasks, built from a SwitchConfig. The same
// object serves `fcswitch` on NICs or vdevs and, later, each switch of the lab.

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "dpdk/eth_port.h"
#include "dpdk/link_watch.h"
#include "node/response_time_budget.h"
#include "switch/fwd_task.h"
#include "switch/l2_fib.h"
#include "switch/port_io.h"
#include "switch/rx_task.h"
#include "switch/switch_state.h"
#include "switch/tx_task.h"

struct rte_mempool;

namespace fcswitch {

// A moment's view of how far the switch has got, to tell when it has nothing left to do.
struct SwitchProgress {
  uint64_t work = 0;                 // packets received + processed + sent + dropped
  bool empty = false;                // every ring and every TX task's hands are empty
  uint64_t held = 0;                 // packets in the rings, FWD's input FIFOs and TX's hands
  uint64_t held_control = 0;         // of those, frames and messages of our own flow control
  std::vector<uint64_t> task_polls;  // per task
};

// A port as the node's tasks see it: how to reach it and what to send from.
struct NodePort {
  std::unique_ptr<PortIo> io;
  wire::MacAddress mac;            // source of the flow-control frames the port sends
  bool pads_short_frames = false;  // the device pads frames under 60 bytes itself
  uint32_t mtu = 1500;             // frames longer than it allows are dropped as oversize
};

class SwitchNode {
 public:
  // On the ethdevs the config's ports name (fcswitch). `tick_hz`: the rate of the clock the
  // tasks are polled with (0: the TSC's). `pyrrha_oracle`: as below; none takes the config's
  // [[pyrrha.paths]]. Throws std::runtime_error.
  explicit SwitchNode(const config::SwitchConfig& config, uint64_t tick_hz = 0,
                      std::shared_ptr<const PyrrhaPathOracle> pyrrha_oracle = nullptr);
  // On ports made elsewhere (the lab's rings), one per config port, in order, with mempools
  // that outlive the node (the lab's, shared by every node: a mempool per node would spend
  // DPDK's 2560 memzones on a few hundred switches). Frames are copied into their own pool.
  // `pyrrha_oracle`: the onward paths of packets, which a switch running [pyrrha] needs.
  SwitchNode(const config::SwitchConfig& config, uint64_t tick_hz, std::vector<NodePort> ports,
             rte_mempool* shared_control_pool,
             std::shared_ptr<const PyrrhaPathOracle> pyrrha_oracle = nullptr);
  ~SwitchNode();

  // Worker lcore i runs lcore_tasks()[i], per the config's layout.
  std::vector<std::vector<Task*>> lcore_tasks() const;

  SwitchProgress progress() const;
  // What two samples say: data moved; nothing moved though every task completed a whole poll
  // in between (so none was mid-burst); or too soon to tell — some task has not polled twice
  // since, as when its lcore lost its CPU (six processes on two CPUs). Too soon is neither
  // motion nor stillness: the caller keeps `before` and asks again later.
  enum class Motion { kMoved, kStill, kTooSoon };
  static Motion motion(const SwitchProgress& before, const SwitchProgress& after);
  // True when nothing moved between `before` and `after`, everything was empty both times,
  // and every task completed a whole poll in between.
  static bool settled(const SwitchProgress& before, const SwitchProgress& after);

  void stop_rx() { state_->rx_stopped.store(true); }
  // τ against each port's response_time (node/response_time_budget.h): the control thread
  // checks it once a second; any thread reads its counters.
  ResponseTimeBudget& response_time_budget() { return *budget_; }
  const ResponseTimeBudget& response_time_budget() const { return *budget_; }
  // Per port, the longest time its RX, TX or the FWD task went unpolled since the last call,
  // in ns (Task::note_poll_gap; 0 where no wall-clock runner polls them). One caller.
  std::vector<uint64_t> take_recent_poll_gaps_ns();
  // The FIB becomes `entries` (learned entries are forgotten). Only while FWD is not polled:
  // the lab calls it between clock steps, when a link fails or a route changes.
  void replace_fib(const std::vector<config::FibEntry>& entries);
  // Control thread, with the lcores stopped: frees what is still queued, counted as
  // shutdown_flush drops. Returns how many.
  uint64_t flush();
  void stop_ports();

  // Counters, summed over the tasks that own them.
  uint64_t drops(int port, DropReason reason) const;
  uint64_t total_drops() const;
  uint64_t rx_packets(int port) const { return rx_tasks_[port]->packets(); }
  // Flow-control frames consumed: by RX, and credit frames by FWD after the ABR resync.
  uint64_t rx_control_frames(int port) const {
    return rx_tasks_[port]->control_frames() + fwd_->credit_frames(port);
  }
  const RxTask& rx(int port) const { return *rx_tasks_[port]; }
  // Whether RX(port) hands its bursts straight to FWD (the layout puts them on one lcore).
  bool rx_hands_to_fwd(int port) const { return rx_tasks_[port]->hands_over(); }
  // Frames in RX(port)'s ring to FWD (any thread).
  unsigned fwd_ring_frames(int port) const;
  const TxTask& tx(int port) const { return *tx_tasks_[port]; }
  uint64_t tx_packets(int port, int queue) const { return tx_tasks_[port]->packets(queue); }
  uint64_t tx_bytes(int port, int queue) const { return tx_tasks_[port]->bytes(queue); }
  uint64_t admitted_packets(int port, int priority) const {
    return fwd_->admitted_packets(port, priority);
  }
  uint64_t ingress_occupancy_bytes(int port, int priority) const {
    return state_->ingress_occupancy.value(SwitchState::occupancy_slot(port, priority));
  }
  uint64_t max_ingress_occupancy_bytes(int port, int priority) const {
    return fwd_->max_ingress_occupancy(port, priority);
  }
  // Bytes waiting in egress queue `queue` of `port` (what its TX task has not sent).
  uint64_t egress_depth_bytes(int port, int queue) const {
    return state_->egress_depth[port]->value(queue);
  }
  // Packets waiting in a PABO sub-queue of (port, queue) (0 where there is none).
  uint64_t pabo_queue_packets(int port, int queue, bool bounce_subqueue) const {
    if (!has_priority(state_->pabo_queues, queue)) return 0;
    return state_->pabo_depth[port]->value(SwitchState::pabo_slot(queue, bounce_subqueue, false));
  }
  PriorityMask pabo_priorities() const { return state_->pabo_queues; }
  // The egress queues of `port` that mark ECN ([ecn], [ports.ecn]).
  PriorityMask ecn_queues(int port) const { return config_.ports[port].ecn.queues; }
  // Bytes waiting in queue `queue` of `egress_port` that arrived on (`ingress_port`,
  // `priority`). With Tagger the queue is the new tag's, not always the arrival priority.
  // Counted only with SwitchConfig::count_queued_from (the lab sets it).
  uint64_t queued_from_bytes(int egress_port, int queue, int ingress_port, int priority) const {
    if (!state_->queued_from)
      throw std::logic_error(config_.name + ": queued_from_bytes without count_queued_from");
    return state_->queued_from->value(egress_port, queue, ingress_port, priority);
  }
  // Its ethdev ports, for a dpdk::LinkWatch (empty on ports made elsewhere: the lab's).
  std::vector<dpdk::LinkWatch::Port> link_watch_ports() const {
    std::vector<dpdk::LinkWatch::Port> out;
    for (size_t p = 0; p < eth_ports_.size(); ++p)
      out.push_back({eth_ports_[p]->id(), config_.ports[p].name, eth_ports_[p]->redials()});
    return out;
  }
  uint64_t nic_rx_dropped(int port) const {
    return eth_ports_.empty() ? 0 : eth_ports_[port]->nic_rx_dropped();
  }
  const FwdTask& fwd() const { return *fwd_; }
  // The lab's thread, which runs FWD: port `port`'s link went down or came back.
  void link_changed(int port, bool up) {
    fwd_->link_changed(port, up);
    if (up) link_restored(port);
  }
  // Any thread (fcswitch's link watch): port `port`'s link came back.
  void link_restored(int port) { tx_tasks_[port]->link_restored(); }
  // The flow-control engine of (port, priority), as registered ("pfc", "gfc-buffer", …).
  std::string_view engine_name(int port, int priority) const {
    const auto* engine = config_.ports[port].flow_control.priorities[priority].engine;
    return engine ? engine->name : "none";
  }

  // Both pools: data and the switch's own frames (in the lab: the lab's control pool).
  unsigned mempool_size() const;
  unsigned mempool_in_use() const;
  const TickRate& ticks() const { return ticks_; }
  // Its config as built, but for `fib`, which build() installs in the L2Fib and drops.
  const config::SwitchConfig& config() const { return config_; }
  // Its shared state (queues' rings and counters): for readers such as the lab's schedule.
  const SwitchState& state() const { return *state_; }
  // The ports with new input for TX and for FWD (SwitchState::tx_wakes, fwd_inputs): for a
  // caller that runs all of the node's tasks on its one thread (the lab's schedule enables
  // and reads them).
  PortWakeSet& tx_wakes() { return state_->tx_wakes; }
  PortWakeSet& fwd_inputs() { return state_->fwd_inputs; }
  int ports() const { return static_cast<int>(ports_.size()); }

 private:
  void create_pools();
  // Static entries into the FIB; returns the ECMP groups they point at.
  std::vector<std::vector<uint16_t>> install_fib(const std::vector<config::FibEntry>& entries);
  void build();
  Task* task_for(const config::TaskRef& ref) const;

  config::SwitchConfig config_;
  TickRate ticks_;
  rte_mempool* pool_ = nullptr;
  rte_mempool* control_pool_ = nullptr;  // frames the switch originates (PFC, credits)
  bool owns_control_pool_ = true;
  std::vector<std::unique_ptr<dpdk::EthPort>> eth_ports_;  // empty on ports made elsewhere
  std::vector<NodePort> ports_;
  std::shared_ptr<const PyrrhaPathOracle> pyrrha_oracle_;  // null: no [pyrrha]
  std::unique_ptr<SwitchState> state_;
  std::unique_ptr<L2Fib> fib_;
  std::vector<std::unique_ptr<RxTask>> rx_tasks_;
  std::unique_ptr<FwdTask> fwd_;
  std::vector<std::unique_ptr<TxTask>> tx_tasks_;
  DropCounters shutdown_drops_;  // written by the control thread in flush()
  std::unique_ptr<ResponseTimeBudget> budget_;
};

}  // namespace fcswitch

#pragma once
// The lab's network (docs/architecture.md): the scenario's switches (SwitchNode, as in fcswitch)
// and hosts (TrafficHost) on FIFOs (LinkFifoPortIo, no ethdevs), joined by LabLinks that pace at
// the link rate and deliver after the propagation delay, run on one thread by a clock:
//
//   virtual — what has work or a timer (LabSchedule) is polled at the current time until
//     nothing moves; then the clock jumps to the earliest time anything will act by itself (a
//     frame arrives, a wire frees, a pause expires, a credit period ends, a flow starts, a
//     sample is due). The cost of a step follows the traffic, not the size of the network.
//     No wall-clock time enters: the same scenario gives the same result, bit for bit.
//   virtual-poll-all — the same clock, polling every task and link until nothing moves at
//     every step: the check of what the schedule skips (lab_schedule.h says where the two
//     must agree).
//   wall — the TSC; everything is polled in turn, as fast as it goes.
//
// On the virtual clock, `threads` > 1 splits the network into as many parts (lab_partition.h),
// each polled by a thread of its own on a schedule of its own; the threads step together in
// windows of the lookahead. A run gives what it gives on one thread, byte for byte, as long as
// the data pool never runs dry (a source that waits for frames freed anywhere sees the other
// threads' timing).
//
// Samples (queues.csv, flows.csv) are written to `out_dir` while it runs, if one is given.

#include <rte_mempool.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/progress_line.h"
#include "lab/lab_link.h"
#include "lab/lab_partition.h"
#include "lab/lab_path_oracle.h"
#include "lab/lab_pool_warning.h"
#include "lab/lab_schedule.h"
#include "node/switch_node.h"
#include "pyrrha/root_id.h"
#include "results/lab_result.h"
#include "scenario/closed_loops.h"
#include "scenario/lab_scenario.h"
#include "traffic/flow_frame.h"
#include "traffic/host_sink.h"
#include "traffic/traffic_host.h"

namespace fcswitch::lab {

class LabSampler;

class LabNetwork {
 public:
  // Throws std::invalid_argument when the scenario cannot run on `threads` (partition_lab).
  // Moved in where the caller has no more use for it: a scenario at k = 16 is ~100 MB.
  explicit LabNetwork(LabScenario scenario, int threads = 1);
  ~LabNetwork();
  LabNetwork(const LabNetwork&) = delete;
  LabNetwork& operator=(const LabNetwork&) = delete;

  // Runs the scenario for its duration, then shuts the network down (every frame freed).
  // `progress`: simulated time reached and packet-hops per wall second, now and then.
  // `stop`: asked now and then (every 1 024 clock steps); true ends the run where it is,
  // reported as interrupted.
  LabResult run(const std::string& out_dir = "", ProgressLine* progress = nullptr,
                const std::function<bool()>& stop = {});

  // The switches, with their scenario names (for metrics); valid while the network lives.
  std::vector<std::pair<std::string, const SwitchNode*>> switch_nodes() const;

 private:
  struct PortRings {
    std::unique_ptr<LinkFifo> in;   // the link delivers, the port's RX takes
    std::unique_ptr<LinkFifo> out;  // the port's TX puts (its NIC TX ring), the link takes
  };

  void build();
  void free_frames();           // every frame still in the network back to its pool
  void release();               // frees everything built so far; idempotent
  bool poll_all(uint64_t now);  // one round of everything (wall clock); whether anything moved
  void build_schedules();       // the virtual clock's: one a part
  ScheduledNode scheduled_node(size_t node);
  // The run's loop on one thread, and on several (in windows); StepEnd is what follows the
  // clock's steps (samples, checks, progress), and says when the run ends.
  struct StepEnd;
  uint64_t run_steps(StepEnd& end);
  uint64_t run_windows(StepEnd& end);
  // The part's steps from `from_ticks` to `last_ticks`, both included (LabWorkers' window).
  void run_part_window(int part, uint64_t from_ticks, uint64_t last_ticks, uint64_t end_ticks);
  // LabClock::kVirtualPollAll: poll_all until nothing moves, and the earliest next action of
  // every link and node (the schedule's reference).
  void settle(uint64_t now);
  uint64_t next_action_of_all(uint64_t now) const;
  LabResult collect(const LabSampler& sampler, uint64_t end_ticks) const;
  FlowFrameSpec frame_spec(const FlowSpec& flow) const;  // its frames' addresses and size
  // Its frames at its source, its receiver at the destination's sink (transports), and for a
  // closed loop's flow the sink's watch on its end.
  void start_flow(const FlowSpec& flow);
  // A closed loop's flow came whole at `now`: its host's next one (lab/closed_loops.h).
  void next_closed_loop_flow(uint32_t finished, uint64_t now);
  // Each flow's links, from its host's to the destination's, as routed before the run.
  std::vector<std::vector<workload::PathHop>> flow_paths() const;
  // Pyrrha: the congestion roots a flow's frames cross as the switches now forward them
  // (pyrrha_paths_): every switch hop {its index in the topology, which is its switch_id; the
  // egress port}. Empty with static routing.
  std::vector<pyrrha::RootId> pyrrha_path(const FlowSpec& flow) const;
  void update_pyrrha_paths();  // after pyrrha_paths_ changed, at the hosts that run Pyrrha
  // [[events]] due by `now`; returns whether any was applied.
  bool apply_events(uint64_t now);
  void reinstall_routes(int node);  // its static routes over the current routed ones
  void shut_down(LabResult& result);
  // At a sample: says once, when a source first found the data pool empty.
  void say_if_pool_ran_out(uint64_t now);

  LabScenario scenario_;
  TickRate ticks_;
  rte_mempool* data_pool_ = nullptr;
  rte_mempool* control_pool_ = nullptr;                // every node's own frames (PFC, credits)
  std::vector<std::vector<PortRings>> rings_;          // [node][port]
  std::vector<std::unique_ptr<SwitchNode>> switches_;  // [node], null for hosts
  std::vector<std::unique_ptr<TrafficHost>> hosts_;    // [node], null for switches
  std::vector<std::unique_ptr<LabLink>> links_;
  std::vector<Task*> tasks_;
  LabPartition partition_;
  std::vector<std::unique_ptr<LabSchedule>> schedules_;  // [part]: virtual clock only
  std::vector<std::vector<uint64_t>> part_steps_;        // [part]: a window's step times
  std::unique_ptr<ClosedLoops> closed_loops_;            // null: none in the scenario
  FlowSentRecords sent_;
  FlowReceivedRecords received_;
  bool interrupted_ = false;
  bool pool_ran_out_ = false;        // said already
  LabFrameCapacity frame_capacity_;  // what the data pool would need never to run out
  uint64_t clock_steps_ = 0;
  std::vector<size_t> first_port_;  // per node: its first port's index in LabResult::ports
  size_t next_event_ = 0;           // into scenario_.events
  std::vector<topology::SwitchLink> failed_;               // switch-to-switch links cut by events
  std::optional<topology::RouteTable> routes_;             // as now routed ([topology] routing)
  std::vector<std::vector<config::FibEntry>> static_fib_;  // per node: routes that win
  // What Pyrrha's switches predict paths from: routes_ with static_fib_ over them.
  std::shared_ptr<LabPathIndex> pyrrha_paths_;
};

}  // namespace fcswitch::lab

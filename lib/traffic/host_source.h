#pragma once
// The traffic generators of a lab host: its flows, each a stream of stamped frames
// (flow_frame.h) put into the egress queue of its priority on the host's one port, where the
// port's TX task and its flow-control engines take them — as an RDMA NIC's send queues feed
// its port. A queue is kept only a little ahead of TX (kQueueAheadPackets), so a paused or
// rate-limited priority holds its flows back instead of piling frames up in the host.
//
// A flow sends from start to stop (or until `size` is sent), at its own rate or as fast as
// the queue takes frames, and in an on-off pattern if it has one. Packets enter the queue
// charged as if they had arrived on the host's port 1 (its applications), so the port's own
// ingress occupancy — what the host's feedback generators watch — is the traffic it receives.
//
// Over its transport (lab_scenario.h FlowTransport): a `window` flow sends what its
// WindowSender allows (new frames while the window has room, retransmissions first) and ends
// when all is acknowledged; a `dcqcn` flow's pacer runs at DCQCN's current rate R_C, cut on
// each CNP and raised by its timers and byte counter, and under a window if it has one. What
// comes back reaches the source through the host's sink (on_ack, on_cnp). A `timely` flow's
// pacer runs at TIMELY's rate, moved by each ACK's RTT: the echo of the send time stamped in the
// frame when it entered the NIC's queue, less one frame at line rate (TIMELY §3).
//
// Under Pyrrha (the host's config has [pyrrha]), each flow of Pyrrha's class knows its path as
// the congestion roots it crosses (every switch hop {switch, egress port}, predicted with the
// switches' ECMP hash), and a flow whose path crosses a root the host's switch paused sends
// nothing — new frames or retransmissions — until that root is resumed or merged away (Pyrrha
// §4.4, "Cooperation on end-hosts": per-flow pause, as the authors' NICs pick only QPs whose
// path crosses no paused root); the host's other flows go on. A held flow sets no timer of its
// own (its RTO and DCQCN timers still run): the RESUME reaches the sink, and the source, polled
// after it in the same poll of the host, lets the flow go. The class's NIC queue is then kept to
// Pyrrha's stage (PyrrhaSettings::stage_bytes, as a switch's egress ring), not 64 frames, so
// that what is already past the flows when a PAUSE comes is a few frames, not a BDP.

#include <rte_mempool.h>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "core/alloc_failure_count.h"
#include "core/owned_counter.h"
#include "core/task.h"
#include "core/tick_rate.h"
#include "pyrrha/host_root_pauses.h"
#include "pyrrha/root_id.h"
#include "scenario/lab_scenario.h"
#include "shaping/rate_limiter.h"
#include "switch/switch_state.h"
#include "traffic/host_egress.h"
#include "transport/dcqcn_reaction_point.h"
#include "transport/timely_sender.h"
#include "transport/window_sender.h"

namespace fcswitch::lab {

struct FlowSent {
  OwnedCounter packets;  // every frame sent, retransmissions included
  OwnedCounter bytes;
  // When the last frame of a sized flow was queued (a reliable flow: when its last ACK came);
  // 0 until then.
  OwnedGauge done_ticks;
  // Transports (lib/transport): frames sent again, RTOs, fast retransmits, ACKs and CNPs that
  // reached the source; DCQCN's current rate R_C and the window in force, for the traces.
  OwnedCounter retransmissions;
  OwnedCounter timeouts;
  OwnedCounter fast_retransmits;
  OwnedCounter acks;
  OwnedCounter cnps;
  OwnedGauge rate_bps;
  // The lowest rate the rate engine set (the line rate until it moves): whether the feedback
  // ever moved the rate, which the rate at the end does not say once it has climbed back.
  OwnedGauge lowest_rate_bps;
  OwnedGauge window_bytes;
  // Pyrrha: times the flow was stopped by a paused root on its path (while none held it),
  // the time it spent stopped in the episodes that ended, and the start (+1) of the one still
  // running (0: none). Counted from the flow's start to its end.
  OwnedCounter pyrrha_pauses;
  OwnedCounter pyrrha_blocked_ticks;
  OwnedGauge pyrrha_blocked_since;
};

// The lab's per-flow records of what was sent, by flow id (a deque, as FlowReceivedRecords).
using FlowSentRecords = std::deque<FlowSent>;

// The ticks a flow spent stopped by paused roots up to `until` (the end of the run, or of the
// flow if it stopped first): the episodes that ended and the one still running.
uint64_t pyrrha_blocked_ticks(const FlowSent& sent, uint64_t until);

class HostSource : public Task {
 public:
  static constexpr unsigned kQueueAheadPackets = 64;
  static constexpr int kApplicationPort = kHostApplicationPort;
  static constexpr int kNicPort = kHostNicPort;

  // `line_rate_bps`: the NIC's, where DCQCN flows start.
  HostSource(std::string name, SwitchState& state, rte_mempool* pool, const TickRate& ticks,
             const shaping::WireFraming& framing, uint64_t line_rate_bps);
  ~HostSource() override;

  // Pyrrha: the host's paused roots (its sink applies the switch's messages to them), the
  // class they control and the bytes the class's NIC queue is kept to. Before add_flow.
  void set_root_pauses(const pyrrha::HostRootPauses* pauses, int priority, uint64_t stage_bytes);
  // `frame`: the flow's template (make_flow_frame); `sent` lives as long as this source.
  // `pyrrha_path`: the roots it crosses, near to far (ignored unless the flow is of Pyrrha's
  // class and set_root_pauses came first).
  void add_flow(const FlowSpec& flow, std::vector<uint8_t> frame, FlowSent& sent,
                const TransportSettings& transport, std::vector<pyrrha::RootId> pyrrha_path = {});
  // Pyrrha: flow `id` was rerouted ([[events]]): its new path, checked at the next poll.
  void set_pyrrha_path(uint32_t id, std::vector<pyrrha::RootId> path);
  // What the host's sink took for the flows sent from here (flow ids; others are ignored): a
  // cumulative ACK (with the send time it echoes, kNoStamp if none), a CNP.
  void on_ack(uint32_t flow, uint64_t cumulative, uint64_t echoed_send_ticks, uint64_t now_ticks);
  void on_cnp(uint32_t flow, uint64_t now_ticks);
  // The earliest time a flow starts, turns on or may send again by its own rate; kNeverTicks
  // when only TX taking frames can let a flow go on.
  uint64_t next_event_ticks(uint64_t now_ticks) const;
  uint64_t alloc_failures() const { return alloc_failures_.read(); }

 protected:
  bool poll(uint64_t now_ticks) override;

 private:
  struct Flow {
    FlowSpec spec;
    uint64_t start_ticks, stop_ticks, on_ticks, period_ticks;
    std::vector<uint8_t> frame;
    std::optional<shaping::RateLimiter> pacer;
    uint64_t sequence = 0;
    uint64_t bytes = 0;
    FlowSent* sent;
    uint64_t burst_period = 0;  // with a burst: the on-off period the count below is of
    uint64_t burst_sent = 0;
    std::optional<transport::WindowSender> window;
    std::optional<transport::DcqcnReactionPoint> dcqcn;
    std::optional<transport::TimelySender> timely;
    uint64_t frame_ticks = 0;  // TIMELY: one frame's serialisation at line rate
    // Pyrrha: the roots on its path; whether one of them holds it, as of generation
    // `pyrrha_generation` of the paused roots (kStaleGeneration: to be looked at), and since.
    std::vector<pyrrha::RootId> path;
    uint64_t pyrrha_generation;
    bool held;
    uint64_t held_since_ticks;
    // Its entry in timers_ (kNeverTicks: none), and whether DCQCN's rate moved by its byte
    // counter since the pacer last took it (then it is in rate_moved_).
    uint64_t timer_entry_ticks;
    bool rate_moved;
  };
  static constexpr uint64_t kStaleGeneration = UINT64_MAX;
  Flow* transport_flow(uint32_t id);
  FlowSent* retired_transport_flow(uint32_t id);  // null: not one
  // DCQCN's timers, and its rate into the flow's pacer.
  void run_dcqcn(Flow& flow, uint64_t now);
  // The transport timers (DCQCN's, the window's RTO) due by `now`, and the rates DCQCN's byte
  // counter moved since the last poll into their pacers: what a walk over every transport flow
  // at the start of each poll did.
  void run_transport_timers(uint64_t now);
  // The earliest of a transport flow's timers into timers_, if earlier than its entry there.
  void schedule_timers(size_t index);
  // timers_ again from flows_ (after flows left it).
  void index_timers();
  // A rate engine's new rate into the flow's pacer and its trace.
  void set_rate(Flow& flow, uint64_t rate_bps);
  bool finished(const Flow& flow, uint64_t now) const;
  // A closed loop's flows leave once finished (its host makes one after another all run long,
  // and each would cost every poll a look); other flows stay, and keep their turn.
  void retire_finished_closed_loop_flows(uint64_t now);
  // When the flow may next send by its schedule alone (start, on phase, own rate); `now` if
  // it may now.
  uint64_t opens_at(const Flow& flow, uint64_t now) const;
  // When the flow next acts by itself, as next_event_ticks counts it (kNeverTicks: not
  // after `now`). At least its start unless it has a window or DCQCN, whose timers run from
  // the flow's creation.
  uint64_t own_event_ticks(const Flow& flow, uint64_t now) const;
  // The pending flows that start by `now` join live_.
  void start_due_flows(uint64_t now);
  // live_ and pending_ again from flows_ (after flows left it), as of a poll at `now`.
  void index_flows(uint64_t now);
  bool send_one(Flow& flow, uint64_t now);
  // Pyrrha: whether a paused root holds the flow, its verdict brought up to date first (from
  // its start on: before, it cannot send anyway). Inline: asked of every flow in every round.
  bool held_by_pyrrha(Flow& flow, uint64_t now) {
    if (flow.path.empty()) return false;  // no Pyrrha, another class, or no predicted path
    if (flow.pyrrha_generation == root_pauses_->generation()) return flow.held;
    return look_at_roots(flow, now);
  }
  // The paused roots changed (or the flow's path): its verdict again; episodes begin and end.
  bool look_at_roots(Flow& flow, uint64_t now);
  // The verdict as last brought up to date, if still current (next_event_ticks).
  bool held_now(const Flow& flow) const {
    return flow.held && flow.pyrrha_generation == root_pauses_->generation();
  }
  void end_hold(Flow& flow, uint64_t now);

  SwitchState& state_;
  rte_mempool* pool_;
  TickRate ticks_;
  shaping::WireFraming framing_;
  uint64_t line_rate_bps_;
  // Every flow's pacer follows it: exact pacing from the flow's start, no line rate of its own,
  // no catch-up (the source is polled whenever it said it would act).
  shaping::RateLimiterProfile flow_pacing_;
  std::vector<Flow> flows_;
  // A host of a Poisson workload holds all of a run's flows from the start, so a poll does not
  // look at every one. `live_`: the flows started by the last poll and not then finished, by
  // index, ascending; a poll's rounds visit them in the order a walk over all flows from its
  // first would (the others are skipped there anyway: not started or finished, which lasts).
  // `pending_`: the others, by (start, index), the earliest at the back; next_event_ticks looks
  // at them from the earliest only while their start could still be the earliest time.
  std::vector<size_t> live_;
  std::vector<std::pair<uint64_t, size_t>> pending_;
  std::unordered_map<uint32_t, size_t> transport_flows_;  // flow id → index in flows_
  // The transport flows' timers, (due, index), the earliest on top; an entry whose time is not
  // its flow's timer_entry_ticks is stale. A long workload holds thousands of flows, each
  // idle most of the run: a poll looks only at those with a timer due.
  using TimerEntry = std::pair<uint64_t, size_t>;
  std::priority_queue<TimerEntry, std::vector<TimerEntry>, std::greater<>> timers_;
  std::vector<size_t> rate_moved_;  // flows whose DCQCN rate moved as they sent
  // Closed-loop flows over a transport that left flows_: what still comes back is counted.
  std::unordered_map<uint32_t, FlowSent*> retired_transport_flows_;
  size_t next_flow_ = 0;
  size_t closed_loop_flows_ = 0;  // of flows_
  AllocFailureCount alloc_failures_{&state_.alloc_failures};
  const pyrrha::HostRootPauses* root_pauses_ = nullptr;  // the TrafficHost's; null: no Pyrrha
  int pyrrha_priority_ = -1;
  uint64_t pyrrha_stage_bytes_ = 0;
  size_t after_last_sent_ = 0;  // Pyrrha: where the next poll's turns start (poll())
};

}  // namespace fcswitch::lab

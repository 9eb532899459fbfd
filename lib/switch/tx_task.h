#pragma once
// TX of one port: the egress scheduler picks among the port's queues (strict priority, then
// DWRR), the burst goes to the NIC, and each packet the NIC accepts releases the buffer it
// was charged to. What the NIC does not accept waits, in order, for the next poll: a
// lossless packet is never dropped because a TX ring was momentarily full.
//
// TX(p) also runs both halves of port p's flow-control engines (docs/architecture.md) from its
// thread: the egress gates (switch/egress_gates.h), fed with the messages RX(p) decoded,
// decide which queues are eligible and how many head packets each may send; the feedback
// generators (switch/port_feedback.h) watch the ingress occupancy of port p, and their frames
// (switch/feedback_framer.h) go out of p ahead of any data, never behind a paused or
// rate-limited queue; so do Pyrrha's messages that FWD's congestion-root table sends out of p
// (switch/pyrrha_framer.h), where the switch runs Pyrrha. This class keeps the queue heads,
// the scheduler and what the NIC has not taken.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

#include <rte_ring.h>

#include "core/latency_histogram.h"
#include "core/owned_counter.h"
#include "core/packet_meta.h"
#include "core/task.h"
#include "core/tick_rate.h"
#include "core/traffic_class.h"
#include "fc/engine.h"
#include "fc/gate_watchdog.h"
#include "shaping/port_pacer.h"
#include "switch/burst.h"
#include "switch/drop_counters.h"
#include "switch/egress_gates.h"
#include "switch/egress_scheduler.h"
#include "switch/feedback_framer.h"
#include "switch/port_feedback.h"
#include "switch/port_io.h"
#include "switch/pyrrha_framer.h"
#include "switch/queue_head.h"
#include "switch/switch_state.h"
#include "wire/mac_address.h"

struct rte_mbuf;
struct rte_mempool;

namespace fcswitch {

// The flow-control side of a TX task. Engines are indexed by priority = egress queue.
struct TxFlowControl {
  std::array<fc::EngineInstance, kNumPriorities> engines;
  fc::WatchdogConfig watchdog;
  TickRate ticks;
  wire::MacAddress mac;                     // source of the frames we send
  uint16_t control_ether_type = 0x8808;     // for PFC frames
  uint16_t stage_opcode = 0x0101;           // GFC stage frames: one frame with PFC if the same
  rte_mempool* control_pool = nullptr;      // frames we originate; never the data pool
  std::optional<shaping::PortPacer> pacer;  // the port capped below its rate
  uint64_t pause_quiet_ticks = 0;  // no frame for this long after XOFF: the upstream stopped
  // The class Pyrrha controls ([pyrrha] priority), carried in its frames; -1: the switch does
  // not run Pyrrha. Required when SwitchState::pyrrha_rings is not empty.
  int pyrrha_priority = -1;
};

class TxTask : public Task {
 public:
  // `pad_short_frames`: the device does not pad frames under 60 bytes (NicProfile).
  // `burst_frames`: at most this many frames committed past the gates at a time (and no more
  // than the port takes: PortIo::tx_room).
  TxTask(std::string name, int port, PortIo& io, bool pad_short_frames,
         const SchedulerConfig& scheduler, TxFlowControl flow_control, SwitchState& state,
         uint16_t burst_frames = kBurstSize);
  ~TxTask() override;

  uint64_t packets(int queue) const { return packets_[queue].read(); }
  uint64_t bytes(int queue) const { return bytes_[queue].read(); }
  // Data packets and feedback frames sent.
  uint64_t packets_moved() const override;
  // Packets taken from the egress rings, and frames we made, not yet accepted by the NIC.
  uint64_t held() const { return held_.read(); }
  // Of those, the frames we made (flow-control and Pyrrha frames): a port whose link is down
  // keeps one waiting, which is not data held.
  uint64_t held_control() const { return held_control_.read(); }
  // Data frames shorter than 60 bytes padded before they left (unpadded ones left as they were:
  // short_frames_unpadded, a chained mbuf with no room).
  uint64_t short_frames_padded() const { return short_frames_padded_.read(); }
  uint64_t short_frames_unpadded() const { return short_frames_unpadded_.read(); }
  const DropCounters& drops() const { return drops_; }

  // Flow control, per priority: frames sent upstream, time the queue waited with packets
  // and a closed gate, watchdog storms. The engines' own counters through engine_counters().
  uint64_t pause_frames_sent(int priority) const { return framer_.pause_frames_sent(priority); }
  uint64_t resume_frames_sent(int priority) const { return framer_.resume_frames_sent(priority); }
  uint64_t credit_frames_sent() const { return framer_.credit_frames_sent(); }
  uint64_t pfc_frames_sent() const { return framer_.pfc_frames_sent(); }
  // Both framers': the feedback frames' and Pyrrha's (the same control pool).
  uint64_t control_alloc_failures() const {
    return framer_.control_alloc_failures() + pyrrha_control_alloc_failures();
  }
  uint64_t messages_without_gate() const { return gates_.messages_without_gate(); }
  uint64_t blocked_ns(int priority) const { return gates_.blocked_ns(priority); }
  // The same, counting a queue still blocked at `now_ticks` since the last check: for a
  // caller that may poll the task rarely (the lab's virtual clock). TX's thread only.
  uint64_t blocked_ns(int priority, uint64_t now_ticks) const {
    return gates_.blocked_ns(priority, now_ticks);
  }
  uint64_t watchdog_storms(int priority) const { return gates_.watchdog_storms(priority); }
  uint64_t watchdog_restores(int priority) const { return gates_.watchdog_restores(priority); }
  bool has_engine(int priority) const { return gates_.has_gate(priority); }

  // Pyrrha (switch/pyrrha_framer.h): whether this port frames FWD's messages, the frames of
  // each kind the port took, and the builds a short control pool delayed; 0 without Pyrrha.
  bool sends_pyrrha() const { return pyrrha_.has_value(); }
  uint64_t pyrrha_frames_sent(pyrrha::MessageKind kind) const {
    return pyrrha_ ? pyrrha_->frames_sent(kind) : 0;
  }
  uint64_t pyrrha_control_alloc_failures() const {
    return pyrrha_ ? pyrrha_->control_alloc_failures() : 0;
  }
  void engine_counters(int priority, const fc::CounterSink& sink) const {
    feedback_.counters(priority, sink);
    gates_.counters(priority, sink);
  }
  // τ measured at this port's input for `priority` (its generator pauses); null otherwise.
  const fc::ResponseTimeMeter* response_time(int priority) const {
    return feedback_.response_time(priority);
  }
  // The feedback generator's level (fc::FeedbackGenerator::level); 0 without one.
  uint64_t feedback_level(int priority) const { return feedback_.level(priority); }
  // Any thread: the port's link came back (switch/port_feedback.h).
  void link_restored() { feedback_.link_restored(); }

  // The time data frames spent inside the switch, from the RX poll that received them to the
  // TX burst that handed them to this port, in ticks (LatencyHistogram units: residence_unit).
  const LatencyHistogram& residence() const { return residence_; }
  uint64_t residence_ns(double quantile) const {
    return ticks_.to_ns(residence_.quantile(quantile));
  }
  uint64_t residence_max_ns() const { return ticks_.to_ns(residence_.max()); }

  // The earliest time a gate, generator or the pacer acts by itself (the lab's clock jumps
  // there when nothing else happens), or the last poll's time when Pyrrha's messages wait in
  // FWD's ring with nothing to stop them (FWD put them there after this task's poll);
  // kNeverTicks if none. TX's thread, or stopped lcores.
  uint64_t next_action_ticks() const;

  // A poll before next_action_ticks() would change nothing until an input of the port changes
  // (switch/port_wake_set.h lists them): the task is quiet. Time its gates account meanwhile
  // (PFC's paused time) is accounted in full by the next poll (fc::EgressGate::poll). For a
  // caller that polls it only then (the lab's virtual clock). TX's thread.
  bool idle_until_input(uint64_t now) const { return quiet_.valid && now < quiet_until_ticks(); }
  // Whether room in its port is an input of the task: not after a quiet poll that found room
  // for all it had (a link that takes frames then has nothing for it). TX's thread.
  bool waits_for_room() const { return !quiet_.valid || quiet_.room_short; }

  // Control thread, after the lcores have stopped: hands back what the task holds.
  unsigned take_held(rte_mbuf** out, unsigned max);

 protected:
  bool poll(uint64_t now_tsc) override;

 private:
  bool refill(int queue);
  // PABO: pulls the bounce sub-queue of `queue` into its head when that is empty.
  bool pull_bounced(int queue);
  // The head the queue sends from: its bounce sub-queue's while that holds packets (PABO
  // §II-E: served strictly first), else the normal one.
  QueueHead& head_of(int queue) {
    if (bounce_heads_ && (*bounce_heads_)[queue].count) return (*bounce_heads_)[queue];
    return heads_[queue];
  }
  void release(const PacketMeta& meta, uint32_t packets);  // they left: their buffer is free
  void release_sent(uint16_t sent);                        // the first `sent` pending packets left
  void record_residence(uint64_t now, uint16_t sent);
  void publish_held();
  // Our own frames go to the port ahead of any data; true while some still wait for it. The
  // feedback frames first, then Pyrrha's, each in its own order: a port that did not take all
  // of the first would take none of the second. Here, inline: most polls have none.
  bool send_control(bool& busy) {
    if (framer_.waiting()) {
      busy |= framer_.send(io_);
      if (framer_.waiting()) return true;
    }
    if (pyrrha_ && pyrrha_->waiting()) {
      busy |= pyrrha_->send(io_);
      if (pyrrha_->waiting()) return true;
    }
    return false;
  }
  std::array<uint32_t, kNumPriorities> pending_blocks() const;
  void drop_queue(int queue);
  void fill_burst(uint64_t now);
  // A poll that moved nothing, or sent all there was, notes what it saw of the task's inputs
  // (note_quiet). A later poll before the task's next action that finds them unchanged would
  // move nothing either, and returns at once: most TX polls of a lab network, where a node's
  // every task is polled when one of them has work (docs/architecture.md: the virtual clock's cost
  // follows the traffic), and the idle direction's TX in fcswitch. The inputs:
  // RX(p)'s messages, packets put in the port's egress rings where a head is empty
  // (SwitchState::egress_enqueued: from FWD's stages, input FIFOs or Pyrrha's queues, or a
  // lab host's source), what the generators read (PortFeedback::input_unchanged: when only
  // that changed, only they are asked), and room in a port that had none. Not with PABO's
  // bounce sub-queues or Pyrrha's messages, which reach TX by other ways. A τ meter
  // measuring a pause needs no more: every arrival is an input, and it times the quiet from
  // them (fc/response_time_meter.h).
  // The next action is worked out when first asked for (most notes in fcswitch's busy
  // direction are followed by new packets, and never asked): nothing it depends on changes
  // while the task stays quiet.
  struct QuietInputs {
    bool valid = false;
    bool room_short = false;
    bool until_known = false;
    uint64_t until_ticks = 0;
    uint64_t egress_enqueued = 0;
  };
  // All but what the generators read (PortFeedback::input_unchanged), which poll() looks at
  // last: when only that changed, only the generators are asked.
  bool quiet_but_for_feedback(uint64_t now) const {
    return !gates_.messages_waiting(state_.control_posted[port_].messages.read()) &&
           no_head_to_refill() && (!quiet_.room_short || io_.tx_room(1) == 0) &&
           now < quiet_until_ticks();
  }
  // Packets put in the egress rings since the note are work only where they reach an empty
  // head, which they refill. Behind a head that holds packets they change nothing this poll
  // could do: that head waits at a closed gate, or for room in the port, or the pacer (a
  // GFC ring's ports at their stage's rate, most of the time). The count is noted again
  // once looked at; whatever it counts was charged before it was bumped.
  bool no_head_to_refill() const {
    const uint64_t enqueued = state_.egress_enqueued[port_].read();
    if (enqueued == quiet_.egress_enqueued) return true;
    if (state_.egress_depth[port_]->nonzero_mask() & ~uint32_t{backlogged_}) return false;
    quiet_.egress_enqueued = enqueued;
    return true;
  }
  uint64_t quiet_until_ticks() const {
    if (!quiet_.until_known) {
      quiet_.until_ticks = action_ticks();
      quiet_.until_known = true;
    }
    return quiet_.until_ticks;
  }
  uint64_t action_ticks() const;              // next_action_ticks(), worked out
  void note_quiet(uint64_t egress_enqueued);  // as read at the start of the poll
  // After a burst that left packets queued: the gates hold every queue that has packets, or
  // the port has no room for more, so that the next poll would send nothing.
  bool nothing_more_now(uint64_t now);
  // The rest of a poll once the generators have been asked (`fresh`: what they asked for, if
  // anything): feedback frames, then the data burst.
  bool send(uint64_t now, uint64_t egress_enqueued, const fc::FeedbackOut* fresh, bool busy);
  void take(int q, uint64_t now, bool alone, uint16_t limit, QueueMask& open,
            std::array<uint16_t, kNumEgressQueues>& allowed,
            std::array<uint16_t, kNumEgressQueues>& taken,
            std::array<uint32_t, kNumEgressQueues>& head_bytes);

  int port_;
  PortIo& io_;
  bool pad_short_frames_;
  uint16_t burst_frames_;
  SwitchState& state_;
  EgressScheduler scheduler_;
  // The head of each egress ring, pulled in bursts so the scheduler can see packet lengths.
  std::array<QueueHead, kNumEgressQueues> heads_;
  // PABO queues (SwitchState::pabo_queues): the head of the bounce sub-queue (empty elsewhere).
  // Made only where the switch has PABO queues: 3.5 KB a port (a lab's thousands of them).
  std::unique_ptr<std::array<QueueHead, kNumEgressQueues>> bounce_heads_;
  QueueMask backlogged_ = 0;                       // queues whose QueueHead holds packets
  std::array<int, kNumEgressQueues> next_lane_{};  // the lane each queue refills from next
  // Chosen by the scheduler, not yet accepted by the NIC; with what each will release.
  rte_mbuf* pending_[kBurstSize];
  PacketMeta pending_meta_[kBurstSize];
  uint64_t pending_rx_ticks_[kBurstSize];
  uint16_t pending_count_ = 0;

  std::optional<shaping::PortPacer> pacer_;  // the port capped below its rate
  PortFeedback feedback_;
  EgressGates gates_;
  FeedbackFramer framer_;
  std::optional<PyrrhaFramer> pyrrha_;  // where the switch runs Pyrrha (pyrrha_rings)
  uint64_t last_poll_ticks_ = 0;
  mutable QuietInputs quiet_;  // its next action is filled in when first asked for
  bool room_short_ = false;    // the last burst found no room in the port
  TickRate ticks_;
  LatencyHistogram residence_;

  std::array<OwnedCounter, kNumEgressQueues> packets_;
  std::array<OwnedCounter, kNumEgressQueues> bytes_;
  OwnedGauge held_;
  OwnedGauge held_control_;
  OwnedCounter short_frames_padded_;
  OwnedCounter short_frames_unpadded_;
  DropCounters drops_;
};

}  // namespace fcswitch

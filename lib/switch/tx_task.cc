#include "switch/tx_task.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/units.h"
#include "switch/short_frame_padding.h"
#include "wire/credit_frame.h"

namespace fcswitch {

namespace {
constexpr uint64_t kResidenceUnitNs = 100;
}  // namespace

TxTask::TxTask(std::string name, int port, PortIo& io, bool pad_short_frames,
               const SchedulerConfig& scheduler, TxFlowControl flow_control, SwitchState& state,
               uint16_t burst_frames)
    : Task(std::move(name)),
      port_(port),
      io_(io),
      pad_short_frames_(pad_short_frames),
      burst_frames_(burst_frames),
      state_(state),
      scheduler_(scheduler),
      pacer_(std::move(flow_control.pacer)),
      feedback_(port, flow_control.engines, flow_control.ticks, flow_control.pause_quiet_ticks,
                state),
      gates_(this->name(), flow_control.engines, flow_control.watchdog, flow_control.ticks),
      framer_(FeedbackFramerSettings{flow_control.mac, flow_control.control_ether_type,
                                     flow_control.stage_opcode, flow_control.control_pool,
                                     &state.alloc_failures}),
      ticks_(flow_control.ticks),
      // 100 ns buckets up to 12.8 µs, doubling above: a 10 GbE frame time is 67 ns–1.2 µs.
      residence_(flow_control.ticks.from_ns(kResidenceUnitNs)),
      drops_(state.ports) {
  if (state.pabo_queues)
    bounce_heads_ = std::make_unique<std::array<QueueHead, kNumEgressQueues>>();
  if (!state.pyrrha_rings.empty()) {
    if (flow_control.pyrrha_priority < 0 || flow_control.pyrrha_priority >= kNumPriorities)
      throw std::invalid_argument(this->name() + ": Pyrrha's rings without a Pyrrha priority");
    pyrrha_.emplace(
        PyrrhaFramerSettings{flow_control.mac, static_cast<uint8_t>(flow_control.pyrrha_priority),
                             flow_control.control_pool, &state.alloc_failures},
        state.pyrrha_rings[port].get());
  }
}

TxTask::~TxTask() = default;

bool TxTask::pull_bounced(int queue) {
  QueueHead& head = (*bounce_heads_)[queue];  // made with the switch's PABO queues
  if (head.count) return true;
  head.first = 0;
  head.count = static_cast<uint16_t>(
      rte_ring_sc_dequeue_burst(state_.bounce_rings[port_][queue].get(),
                                reinterpret_cast<void**>(head.pkts), kBurstSize, nullptr));
  state_.rewind_if_emptied(state_.bounce_rings[port_][queue].get());
  state_.egress_dequeued[port_].add(head.count);
  for (uint16_t i = 0; i < head.count; ++i) head.bytes[i] = rte_pktmbuf_pkt_len(head.pkts[i]);
  return head.count > 0;
}

bool TxTask::refill(int queue) {
  if (has_priority(state_.pabo_queues, queue) && (pull_bounced(queue) || heads_[queue].count)) {
    backlogged_ |= static_cast<QueueMask>(1u << queue);
    return true;
  }
  QueueHead& head = heads_[queue];
  head.first = 0;
  // Every packet is charged to its queue's depth before it is put in a lane: a queue of no
  // depth has empty lanes, and an idle port's poll need not try each of its queues' lanes.
  if (state_.egress_depth[port_]->value(queue) == 0) {
    backlogged_ &= static_cast<QueueMask>(~(1u << queue));
    return false;
  }
  // Lanes in turn, a burst from the first that has packets (one lane: a plain FIFO).
  const auto& lanes = state_.egress_rings[port_][queue];
  const int n = static_cast<int>(lanes.size());
  for (int i = 0; i < n && !head.count; ++i) {
    const int lane = (next_lane_[queue] + i) % n;
    if (!lanes[lane]) continue;  // never filled (SwitchState's rings made at first use)
    head.count = static_cast<uint16_t>(rte_ring_sc_dequeue_burst(
        lanes[lane].get(), reinterpret_cast<void**>(head.pkts), kBurstSize, nullptr));
    if (head.count) {
      next_lane_[queue] = (lane + 1) % n;
      state_.rewind_if_emptied(lanes[lane].get());
    }
  }
  if (head.count) {
    state_.egress_dequeued[port_].add(head.count);
    for (uint16_t i = 0; i < head.count; ++i) head.bytes[i] = rte_pktmbuf_pkt_len(head.pkts[i]);
    backlogged_ |= static_cast<QueueMask>(1u << queue);
    return true;
  }
  backlogged_ &= static_cast<QueueMask>(~(1u << queue));
  return false;
}

void TxTask::release(const PacketMeta& meta, uint32_t packets) {
  state_.release(meta, port_, packets);
}

void TxTask::release_sent(uint16_t sent) {
  // A run of packets with the same charges (one ingress, priority and queue: typically a whole
  // burst) releases its bytes and counts its packets once, not per packet.
  for (uint16_t i = 0; i < sent;) {
    PacketMeta run = pending_meta_[i];
    uint16_t n = 1;
    for (; i + n < sent; ++n) {
      const PacketMeta& next = pending_meta_[i + n];
      if (!same_charges(next, run)) break;
      run.charged_bytes += next.charged_bytes;  // at most kBurstSize frames: no overflow
    }
    release(run, n);
    packets_[run.egress_queue].add(n);
    bytes_[run.egress_queue].add(run.charged_bytes);
    i = static_cast<uint16_t>(i + n);
  }
}

void TxTask::record_residence(uint64_t now, uint16_t sent) {
  if (!sent) return;
  uint64_t sum = 0, max = 0;
  // The frames one RX poll took share their arrival time: a run of them is one value.
  for (uint16_t i = 0; i < sent;) {
    const uint64_t rx_ticks = pending_rx_ticks_[i];
    uint16_t n = 1;
    while (i + n < sent && pending_rx_ticks_[i + n] == rx_ticks) ++n;
    // Another lcore's TSC may be a little ahead: never a negative time.
    const uint64_t inside = now > rx_ticks ? now - rx_ticks : 0;
    residence_.record_bucket(inside, n);
    sum += inside * n;
    max = std::max(max, inside);
    i = static_cast<uint16_t>(i + n);
  }
  residence_.add_totals(sent, sum, max);
}

std::array<uint32_t, kNumPriorities> TxTask::pending_blocks() const {
  std::array<uint32_t, kNumPriorities> blocks{};
  for (uint16_t i = 0; i < pending_count_; ++i)
    if (pending_meta_[i].egress_queue < kNumPriorities)
      blocks[pending_meta_[i].egress_queue] += wire::credit_blocks(pending_meta_[i].charged_bytes);
  return blocks;
}

void TxTask::drop_queue(int queue) {
  QueueHead& head = heads_[queue];
  while (head.count || refill(queue)) {
    for (uint16_t i = 0; i < head.count; ++i) {
      const PacketMeta& meta = state_.meta(head.pkts[head.first + i]);
      release(meta, 1);
      drops_.add(meta.ingress_port, DropReason::kWatchdogDrop);
    }
    rte_pktmbuf_free_bulk(head.pkts + head.first, head.count);
    head.count = 0;
  }
  scheduler_.on_empty(queue);
}

// Takes the head packet of queue `q`, which the scheduler picked; or, when `q` is the only
// eligible queue (`alone`), as many of its head packets as the burst, its gate and the port's
// pacer allow, in one go — what picking them one by one would do, the scheduler's state
// included.
void TxTask::take(int q, uint64_t now, bool alone, uint16_t limit, QueueMask& open,
                  std::array<uint16_t, kNumEgressQueues>& allowed,
                  std::array<uint16_t, kNumEgressQueues>& taken,
                  std::array<uint32_t, kNumEgressQueues>& head_bytes) {
  QueueHead& head = head_of(q);
  const uint32_t* bytes = head.bytes + head.first;
  uint16_t k = 1;
  if (alone) {
    k = std::min<uint16_t>(head.count, static_cast<uint16_t>(limit - pending_count_));
    if (allowed[q] != EgressGates::kUnlimited) k = std::min(k, allowed[q]);
  }
  if (pacer_) k = static_cast<uint16_t>(pacer_->admit(now, bytes, k));  // ≥ 1: it may send
  if (alone) {
    scheduler_.take_run(q, bytes, k);
  } else {
    scheduler_.on_sent(q, bytes[0]);
  }
  rte_mbuf** pkts = head.pkts + head.first;
  if (pad_short_frames_) {
    for (uint16_t i = 0; i < k; ++i)
      if (bytes[i] < kEthernetMinFrameBytes)
        (pad_to_min_frame(pkts[i]) ? short_frames_padded_ : short_frames_unpadded_).increment();
  }
  const dpdk::MbufMeta fields = state_.meta;  // in registers across the loop's stores
  for (uint16_t i = 0; i < k; ++i) {
    pending_meta_[pending_count_ + i] = fields(pkts[i]);
    pending_rx_ticks_[pending_count_ + i] = fields.rx_ticks(pkts[i]);
    pending_[pending_count_ + i] = pkts[i];
  }
  pending_count_ = static_cast<uint16_t>(pending_count_ + k);
  head.first = static_cast<uint16_t>(head.first + k);
  head.count = static_cast<uint16_t>(head.count - k);
  taken[q] = static_cast<uint16_t>(taken[q] + k);
  if (head.count == 0) {
    // The gate learns what went before it is asked about the next head.
    gates_.commit(q, now, head.bytes + head.first - taken[q], taken[q]);
    taken[q] = 0;
    if (!refill(q)) {
      scheduler_.on_empty(q);
      return;
    }
    gates_.refresh(q, now, head_of(q));
    allowed[q] = gates_.allowance(q);
  } else if (allowed[q] != EgressGates::kUnlimited) {
    allowed[q] = static_cast<uint16_t>(allowed[q] - k);
  }
  const QueueHead& next = head_of(q);
  head_bytes[q] = next.bytes[next.first];  // only the queue just served has a new head
  if (allowed[q] == 0) open &= static_cast<QueueMask>(~(1u << q));
}

void TxTask::fill_burst(uint64_t now) {
  // An idle port (most ports of a lab network at any instant, the input port of a one-way
  // benchmark): no head holds packets, no queue has any charged, and nothing in the gates
  // waits for a check. What follows would find nothing (~1 000 instructions).
  const ChargeReleaseCounters& depth = *state_.egress_depth[port_];
  if (!backlogged_ && !state_.pabo_queues && gates_.quiet() && depth.all_released()) return;
  // The queues with an empty head and something charged (or a PABO bounce sub-queue, which
  // its own depths count) refill; most queues of a port are empty, and asked only this.
  for_each_set(static_cast<QueueMask>((depth.nonzero_mask() | state_.pabo_queues) & ~backlogged_),
               [&](int q) { refill(q); });
  // A bounced packet that arrived while the normal head was being sent goes next.
  for_each_set(state_.pabo_queues & backlogged_, [&](int q) { pull_bounced(q); });
  QueueMask dropping = 0;
  QueueMask open = gates_.check(now, backlogged_, heads_, dropping);
  for_each_set(dropping, [&](int q) { drop_queue(q); });
  if (!(backlogged_ & open)) return;
  const uint16_t limit = io_.tx_room(burst_frames_);
  room_short_ = limit == 0;
  // Per queue: what its gate still allows in this burst, and what was taken from its head
  // since the last commit (the `taken` packets just before head.first).
  std::array<uint16_t, kNumEgressQueues> allowed = gates_.allowances();
  std::array<uint16_t, kNumEgressQueues> taken{};
  std::array<uint32_t, kNumEgressQueues> head_bytes{};
  for_each_set(backlogged_, [&](int q) { head_bytes[q] = head_of(q).bytes[head_of(q).first]; });
  // Only these can be taken from below (a queue's gate only closes in the loop).
  const QueueMask takeable = backlogged_ & open;
  while (pending_count_ < limit) {
    const QueueMask eligible = backlogged_ & open;
    if (!eligible) break;
    // The port's cap applies to data; our feedback frames are not held back by it.
    if (pacer_ && !pacer_->may_send(now)) break;
    // One queue eligible: a run of its packets at once; else the scheduler picks one.
    const bool alone = std::has_single_bit(eligible);
    const int q = alone ? std::countr_zero(eligible) : scheduler_.pick(eligible, head_bytes);
    if (q == EgressScheduler::kNone) break;
    take(q, now, alone, limit, open, allowed, taken, head_bytes);
  }
  for_each_set(takeable, [&](int q) {
    if (taken[q]) gates_.commit(q, now, head_of(q).bytes + head_of(q).first - taken[q], taken[q]);
  });
}

bool TxTask::nothing_more_now(uint64_t now) {
  // What the next poll would do at this time before it found nothing to send: the gates
  // are asked again (they learn that a queue they just let go is now held, by a rate or a
  // credit limit it reached), a queue a watchdog drops is dropped, and the port's room is
  // looked at only if some queue may go.
  QueueMask dropping = 0;
  const QueueMask open = gates_.check(now, backlogged_, heads_, dropping);
  for_each_set(dropping, [&](int q) { drop_queue(q); });
  if (!(backlogged_ & open)) return true;
  if (io_.tx_room(1) != 0) return false;
  room_short_ = true;
  return true;
}

void TxTask::note_quiet(uint64_t egress_enqueued) {
  if (pyrrha_ || state_.pabo_queues || pending_count_ || !framer_.idle()) return;
  quiet_ = {.valid = true, .room_short = room_short_, .egress_enqueued = egress_enqueued};
}

bool TxTask::poll(uint64_t now) {
  if (quiet_.valid) {
    if (quiet_but_for_feedback(now)) {
      gates_.poll(now);  // timers run out, time is accounted (paused time)
      last_poll_ticks_ = now;
      if (feedback_.input_unchanged()) return false;
      // Only what the generators read has changed (an ingress queue filling or draining at
      // a GFC stage): they alone are asked. Unless one asks for a frame, nothing else a
      // poll could do has changed, and the task stays quiet.
      feedback_.note_input();
      fc::FeedbackOut fresh;
      if (!feedback_.poll(now, fresh)) {
        note_quiet(quiet_.egress_enqueued);  // their next action may have moved
        return false;
      }
      quiet_.valid = false;
      return send(now, quiet_.egress_enqueued, &fresh, false);
    }
    quiet_.valid = false;
  }
  // The inputs are read before the poll looks at them: what FWD or another TX task (on other
  // lcores) changes meanwhile differs from this at the next poll, which then looks again.
  const uint64_t egress_enqueued = state_.egress_enqueued[port_].read();
  feedback_.note_input();
  const bool busy = gates_.take_messages(state_.control_rings[port_].get(),
                                         state_.control_posted[port_].messages.read());
  if (busy) state_.rewind_if_emptied(state_.control_rings[port_].get());
  gates_.poll(now);
  fc::FeedbackOut fresh;
  const bool generated = feedback_.poll(now, fresh);
  return send(now, egress_enqueued, generated ? &fresh : nullptr, busy);
}

bool TxTask::send(uint64_t now, uint64_t egress_enqueued, const fc::FeedbackOut* fresh, bool busy) {
  // A generator that asked for a frame may watch its input differently from now on (PFC in
  // XOFF watches it fall): not a poll to note as quiet, whatever else it did.
  const bool generated = fresh != nullptr;
  if (generated) {
    framer_.add(*fresh);
    busy = true;
  }
  framer_.build(framer_.wants_pending_blocks() ? pending_blocks()
                                               : std::array<uint32_t, kNumPriorities>{});
  // What FWD's table sent out of this port since the last poll: taking it is work done.
  if (pyrrha_) busy |= pyrrha_->build();
  if (send_control(busy)) {  // data waits: feedback never falls behind it
    publish_held();
    last_poll_ticks_ = now;
    return busy;
  }
  // Fill the burst only once the NIC has taken the previous one, so that order is kept
  // and a newly eligible higher priority is not stuck behind a full burst for long; and
  // only with what the NIC will take now, so that no frame passes a gate long before it
  // leaves (what is picked is already committed: a pause or a new rate no longer holds it).
  if (pending_count_ == 0) fill_burst(now);
  last_poll_ticks_ = now;
  if (pending_count_ == 0) {
    publish_held();
    if (!generated) note_quiet(egress_enqueued);
    return busy;
  }
  const uint16_t sent = io_.tx_burst(pending_, pending_count_);
  release_sent(sent);
  record_residence(now, sent);
  for (uint16_t i = sent; i < pending_count_; ++i) {
    pending_[i - sent] = pending_[i];
    pending_meta_[i - sent] = pending_meta_[i];
    pending_rx_ticks_[i - sent] = pending_rx_ticks_[i];
  }
  pending_count_ = static_cast<uint16_t>(pending_count_ - sent);
  publish_held();
  // All of it went and no queue holds more, or what is left waits at its gate or for room in
  // the port: the next poll would find nothing either.
  if (!generated && !pending_count_ && (!backlogged_ || nothing_more_now(now)))
    note_quiet(egress_enqueued);
  // Busy means something moved: a full NIC ring is waiting, not work (the lab's virtual
  // clock moves on when no task is busy).
  return busy || sent > 0;
}

uint64_t TxTask::packets_moved() const {
  uint64_t sent = framer_.pfc_frames_sent() + framer_.credit_frames_sent();
  for (int q = 0; q < kNumEgressQueues; ++q) sent += packets(q);
  return sent;
}

uint64_t TxTask::next_action_ticks() const {
  // Nothing has changed since the quiet poll (a poll that finds a change drops it), and no
  // event lay between that poll and this one.
  return quiet_.valid ? quiet_until_ticks() : action_ticks();
}

uint64_t TxTask::action_ticks() const {
  uint64_t next = std::min(feedback_.next_action_ticks(),
                           gates_.next_action_ticks(backlogged_, last_poll_ticks_));
  if (pacer_ && backlogged_ && pacer_->next_open_ticks() > last_poll_ticks_)
    next = std::min(next, pacer_->next_open_ticks());
  // Messages FWD put in the ring after our poll (a layout that polls TX before FWD): due now,
  // so that the lab's clock does not move on without them. Frames waiting for the port and a
  // short pool are not timers: the link taking frames wakes us, and so does a starved node's
  // poll in every round (lab/lab_schedule.h).
  if (pyrrha_ && pyrrha_->ready()) next = std::min(next, last_poll_ticks_);
  return next;
}

void TxTask::publish_held() {
  uint64_t control = framer_.waiting();
  if (pyrrha_) control += pyrrha_->waiting();
  held_control_.set(control);
  uint64_t held = pending_count_ + control;
  // Only a backlogged queue's head holds packets: the others' counts are not read (nine heads,
  // each on its own cache lines).
  for_each_set(backlogged_, [&](int q) { held += heads_[q].count; });
  if (bounce_heads_)
    for (const QueueHead& head : *bounce_heads_) held += head.count;
  held_.set(held);
}

unsigned TxTask::take_held(rte_mbuf** out, unsigned max) {
  unsigned n = framer_.take_held(out, max);
  if (pyrrha_) n += pyrrha_->take_held(out + n, max - n);
  for (uint16_t i = 0; i < pending_count_ && n < max; ++i) out[n++] = pending_[i];
  pending_count_ = 0;
  for (auto* heads : {&heads_, bounce_heads_.get()}) {
    if (!heads) continue;
    for (QueueHead& head : *heads) {
      for (uint16_t i = 0; i < head.count && n < max; ++i) out[n++] = head.pkts[head.first + i];
      head.count = 0;
    }
  }
  backlogged_ = 0;
  publish_held();
  return n;
}

}  // namespace fcswitch

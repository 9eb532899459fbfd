#include "switch/tx_task.h"

#include <algorithm>

#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <spdlog/spdlog.h>

#include "core/units.h"
#include "switch/short_frame_padding.h"
#include "wire/credit_frame.h"
#include "wire/pfc_frame.h"

namespace fcswitch {

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
      flow_(std::move(flow_control)),
      drops_(state.ports) {
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    const fc::EngineInstance& engine = flow_.engines[prio];
    if (engine.gate) {
      gated_ |= static_cast<QueueMask>(1u << prio);
      watchdogs_[prio].emplace(flow_.watchdog, flow_.ticks);
    }
    if (engine.generator) generating_ |= static_cast<PriorityMask>(1u << prio);
    if (engine.generator && engine.generator->level_pauses())
      response_times_[prio] =
          std::make_unique<fc::ResponseTimeMeter>(flow_.ticks, flow_.pause_quiet_ticks);
  }
}

TxTask::~TxTask() = default;

bool TxTask::refill(int queue) {
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
    head.count = static_cast<uint16_t>(rte_ring_sc_dequeue_burst(
        lanes[lane].get(), reinterpret_cast<void**>(head.pkts), kBurstSize, nullptr));
    if (head.count) next_lane_[queue] = (lane + 1) % n;
  }
  if (head.count) {
    backlogged_ |= static_cast<QueueMask>(1u << queue);
    return true;
  }
  backlogged_ &= static_cast<QueueMask>(~(1u << queue));
  return false;
}

uint32_t TxTask::head_length(int queue) const {
  const QueueHead& head = heads_[queue];
  return rte_pktmbuf_pkt_len(head.pkts[head.first]);
}

void TxTask::release(const PacketMeta& meta) {
  state_.release(meta, port_);
}

// --- flow control ---

bool TxTask::take_messages() {
  fc::ControlMessage messages[kBurstSize];
  const unsigned n = rte_ring_sc_dequeue_burst_elem(
      state_.control_rings[port_].get(), messages, sizeof(fc::ControlMessage), kBurstSize, nullptr);
  for (unsigned i = 0; i < n; ++i) {
    fc::EgressGate* gate = flow_.engines[messages[i].priority].gate.get();
    if (gate) {
      gate->on_message(messages[i]);
    } else {
      messages_without_gate_.increment();  // the neighbour runs an engine we do not
    }
  }
  return n > 0;
}

bool TxTask::generate_feedback(uint64_t now) {
  if (!generating_) return false;
  fc::FeedbackOut fresh;
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (!has_priority(generating_, prio)) continue;
    const int slot = SwitchState::occupancy_slot(port_, prio);
    // ABR before occupancy: a packet FWD counts in between then lowers the limit rather
    // than raising it (FCCL = ABR + free must never promise a block twice).
    const auto blocks = static_cast<uint32_t>(state_.received_blocks[slot].read());
    const uint64_t occupancy = state_.ingress_occupancy.value(slot);
    fc::FeedbackGenerator& generator = *flow_.engines[prio].generator;
    generator.poll(now, fc::IngressView{occupancy, blocks}, fresh);
    // Once RX has stopped (shutdown) the input is quiet because we stopped reading it, not
    // because the upstream stopped: no τ to see.
    fc::ResponseTimeMeter* meter = response_times_[prio].get();
    if (meter && !state_.rx_stopped.load(std::memory_order_relaxed)) {
      const uint64_t level = generator.level();
      const uint64_t last_arrival = state_.last_arrival_ticks[slot].read();
      if (level && !paused_level_[prio]) {
        meter->on_pause(now);
      } else if (!level && paused_level_[prio]) {
        meter->on_resume(now, last_arrival);
      } else {
        meter->observe(now, last_arrival);
      }
      paused_level_[prio] = level;
    }
  }
  if (fresh.empty()) return false;
  unsent_.merge(fresh);
  return true;
}

uint32_t TxTask::pending_blocks(int queue) const {
  uint32_t blocks = 0;
  for (uint16_t i = 0; i < pending_count_; ++i)
    if (pending_meta_[i].egress_queue == queue)
      blocks += wire::credit_blocks(pending_meta_[i].charged_bytes);
  return blocks;
}

bool TxTask::add_pfc_layout_frame(const wire::PfcFrame& frame) {
  rte_mbuf* m = rte_pktmbuf_alloc(flow_.control_pool);
  if (!m) {
    control_alloc_failures_.increment();  // kept in unsent_: tried again next poll
    return false;
  }
  auto* data = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, wire::kPfcFrameBytes));
  wire::encode_pfc(frame, flow_.control_ether_type, data);
  pfc_frames_sent_.increment();
  control_[control_count_++] = m;
  return true;
}

bool TxTask::build_control_frames() {
  if (unsent_.empty() || control_count_) return false;
  // GFC stages ride in PFC's own frame when the link gives them PFC's opcode (GFC §5.1).
  const bool stages_with_pfc = flow_.stage_opcode == wire::kPfcOpcode;
  if (unsent_.class_enable || (stages_with_pfc && unsent_.stage_enable)) {
    wire::PfcFrame frame{flow_.mac, unsent_.class_enable, unsent_.class_time};
    if (stages_with_pfc) {
      for (int prio = 0; prio < kNumPriorities; ++prio)
        if (has_priority(unsent_.stage_enable, prio)) frame.time[prio] = unsent_.stage[prio];
      frame.class_enable |= unsent_.stage_enable;
    }
    if (!add_pfc_layout_frame(frame)) return control_count_ > 0;
    for (int prio = 0; prio < kNumPriorities; ++prio)
      if (has_priority(unsent_.class_enable, prio))
        (unsent_.class_time[prio] ? pause_sent_ : resume_sent_)[prio].increment();
    unsent_.class_enable = 0;
    if (stages_with_pfc) unsent_.stage_enable = 0;
  }
  if (unsent_.stage_enable) {
    if (!add_pfc_layout_frame(
            wire::PfcFrame{flow_.mac, unsent_.stage_enable, unsent_.stage, flow_.stage_opcode}))
      return control_count_ > 0;
    unsent_.stage_enable = 0;
  }
  if (unsent_.credit_enable) {
    rte_mbuf* m = rte_pktmbuf_alloc(flow_.control_pool);
    if (!m) {
      control_alloc_failures_.increment();
      return control_count_ > 0;
    }
    wire::CreditFrame frame{flow_.mac, unsent_.credit_enable, unsent_.credit};
    // FCTBS counts what is on the wire ahead of this frame; packets picked but still held
    // here will follow it, and the receiver counts them when they arrive.
    for (int prio = 0; prio < kNumPriorities; ++prio)
      if (has_priority(frame.entry_mask, prio)) frame.entry[prio].fctbs -= pending_blocks(prio);
    auto* data = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, wire::kCreditFrameBytes));
    wire::encode_credit(frame, data);
    credit_frames_sent_.increment();
    control_[control_count_++] = m;
    unsent_.credit_enable = 0;
  }
  return control_count_ > 0;
}

bool TxTask::send_control() {
  const uint16_t sent = io_.tx_burst(control_, control_count_);
  for (uint16_t i = sent; i < control_count_; ++i) control_[i - sent] = control_[i];
  control_count_ = static_cast<uint16_t>(control_count_ - sent);
  return sent > 0;
}

void TxTask::drop_queue(int queue) {
  QueueHead& head = heads_[queue];
  while (head.count || refill(queue)) {
    for (uint16_t i = 0; i < head.count; ++i) {
      const PacketMeta& meta = state_.meta(head.pkts[head.first + i]);
      release(meta);
      drops_.add(meta.ingress_port, DropReason::kWatchdogDrop);
    }
    rte_pktmbuf_free_bulk(head.pkts + head.first, head.count);
    head.count = 0;
  }
  scheduler_.on_empty(queue);
}

QueueMask TxTask::open_queues(uint64_t now) {
  QueueMask open = static_cast<QueueMask>(~gated_);
  // A queue blocked at the last check stayed blocked until now: nothing that could open it
  // happened without a poll (a gate that opens by itself is a wake-up, next_action_ticks),
  // which matters to the lab's virtual clock, which polls only what has work.
  const uint64_t elapsed = now - blocked_checked_ticks_;
  blocked_checked_ticks_ = now;
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (!(gated_ >> prio & 1u)) continue;
    const bool backlogged = backlogged_ >> prio & 1u;
    const bool closed = !flow_.engines[prio].gate->may_send(
        now, backlogged ? head_length(prio) : kEthernetMinFrameBytes);
    const auto bit = static_cast<QueueMask>(1u << prio);
    if (blocked_ & bit) blocked_ticks_[prio].add(elapsed);
    blocked_ = static_cast<QueueMask>(closed && backlogged ? blocked_ | bit : blocked_ & ~bit);
    fc::GateWatchdog& dog = *watchdogs_[prio];
    const fc::WatchdogEvent event = dog.observe(now, closed, backlogged);
    if (event == fc::WatchdogEvent::kStormDetected) {
      spdlog::warn("{}: queue {} held by its gate with packets waiting for {} ns (storm {})",
                   name(), prio, flow_.watchdog.detect_ns, dog.storms());
    } else if (event == fc::WatchdogEvent::kRestored) {
      spdlog::info("{}: queue {} storm over", name(), prio);
    }
    if (dog.dropping()) {
      if (backlogged) drop_queue(prio);
      continue;
    }
    if (!closed || dog.forwarding()) open |= static_cast<QueueMask>(1u << prio);
  }
  return open;
}

uint64_t TxTask::blocked_ns(int priority) const {
  return flow_.ticks.to_ns(blocked_ticks_[priority].read());
}

uint64_t TxTask::blocked_ns(int priority, uint64_t now_ticks) const {
  uint64_t ticks = blocked_ticks_[priority].read();
  if (blocked_ >> priority & 1u && now_ticks > blocked_checked_ticks_)
    ticks += now_ticks - blocked_checked_ticks_;
  return flow_.ticks.to_ns(ticks);
}

uint64_t TxTask::watchdog_storms(int priority) const {
  return watchdogs_[priority] ? watchdogs_[priority]->storms() : 0;
}

void TxTask::engine_counters(int priority, const fc::CounterSink& sink) const {
  const fc::EngineInstance& engine = flow_.engines[priority];
  if (engine.generator) engine.generator->counters(sink);
  if (engine.gate) engine.gate->counters(sink);
}

// --- data ---

void TxTask::fill_burst(uint64_t now) {
  for (int q = 0; q < kNumEgressQueues; ++q)
    if (!(backlogged_ >> q & 1u)) refill(q);
  QueueMask open = open_queues(now);
  if (!(backlogged_ & open)) return;
  const uint16_t limit = io_.tx_room(burst_frames_);
  std::array<uint32_t, kNumEgressQueues> head_bytes{};
  for (int q = 0; q < kNumEgressQueues; ++q)
    if (backlogged_ >> q & 1u) head_bytes[q] = head_length(q);
  while (pending_count_ < limit) {
    const QueueMask eligible = backlogged_ & open;
    if (!eligible) break;
    // The port's cap applies to data; our feedback frames are not held back by it.
    if (flow_.pacer && !flow_.pacer->may_send(now)) break;
    const int q = scheduler_.pick(eligible, head_bytes);
    if (q == EgressScheduler::kNone) break;
    QueueHead& head = heads_[q];
    rte_mbuf* m = head.pkts[head.first++];
    --head.count;
    const uint32_t length = rte_pktmbuf_pkt_len(m);
    if (pad_short_frames_ && length < kEthernetMinFrameBytes)
      (pad_to_min_frame(m) ? short_frames_padded_ : short_frames_unpadded_).increment();
    scheduler_.on_sent(q, length);
    if (flow_.pacer) flow_.pacer->on_send(now, length);
    const bool gated = gated_ >> q & 1u;
    if (gated) flow_.engines[q].gate->on_dequeue(now, length);
    pending_meta_[pending_count_] = state_.meta(m);
    pending_[pending_count_++] = m;
    if (head.count == 0 && !refill(q)) {
      scheduler_.on_empty(q);
      continue;
    }
    head_bytes[q] = head_length(q);  // only the queue just served has a new head
    // Credits and rate limits change with every packet: ask the gate again.
    if (gated && !watchdogs_[q]->forwarding() &&
        !flow_.engines[q].gate->may_send(now, head_bytes[q]))
      open &= static_cast<QueueMask>(~(1u << q));
  }
}

bool TxTask::poll(uint64_t now) {
  bool busy = take_messages();
  for (int prio = 0; prio < kNumPriorities; ++prio)
    if (gated_ >> prio & 1u) flow_.engines[prio].gate->poll(now);
  busy |= generate_feedback(now);
  build_control_frames();
  if (control_count_) {
    busy |= send_control();
    if (control_count_) {  // data waits: feedback never falls behind it
      publish_held();
      last_poll_ticks_ = now;
      return busy;
    }
  }
  // Fill the burst only once the NIC has taken the previous one, so that order is kept
  // and a newly eligible higher priority is not stuck behind a full burst for long; and
  // only with what the NIC will take now, so that no frame passes a gate long before it
  // leaves (what is picked is already committed: a pause or a new rate no longer holds it).
  if (pending_count_ == 0) fill_burst(now);
  last_poll_ticks_ = now;
  if (pending_count_ == 0) {
    publish_held();
    return busy;
  }
  const uint16_t sent = io_.tx_burst(pending_, pending_count_);
  for (uint16_t i = 0; i < sent; ++i) {
    const PacketMeta& meta = pending_meta_[i];
    release(meta);
    packets_[meta.egress_queue].increment();
    bytes_[meta.egress_queue].add(meta.charged_bytes);
  }
  for (uint16_t i = sent; i < pending_count_; ++i) {
    pending_[i - sent] = pending_[i];
    pending_meta_[i - sent] = pending_meta_[i];
  }
  pending_count_ = static_cast<uint16_t>(pending_count_ - sent);
  publish_held();
  // Busy means something moved: a full NIC ring is waiting, not work (the lab's virtual
  // clock moves on when no task is busy).
  return busy || sent > 0;
}

uint64_t TxTask::next_action_ticks() const {
  uint64_t next = kNeverTicks;
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    const fc::EngineInstance& engine = flow_.engines[prio];
    if (engine.generator) next = std::min(next, engine.generator->next_action_ticks());
    // A gate that opens matters only to a queue with packets; one open already is no event.
    if (engine.gate && (backlogged_ >> prio & 1u)) {
      const uint64_t opens = engine.gate->next_action_ticks();
      if (opens > last_poll_ticks_) next = std::min(next, opens);
    }
    // A watchdog acts when its queue has been held long enough, with or without a poll.
    if (watchdogs_[prio]) {
      const uint64_t acts = watchdogs_[prio]->next_action_ticks();
      if (acts > last_poll_ticks_) next = std::min(next, acts);
    }
  }
  if (flow_.pacer && backlogged_ && flow_.pacer->next_open_ticks() > last_poll_ticks_)
    next = std::min(next, flow_.pacer->next_open_ticks());
  return next;
}

void TxTask::publish_held() {
  uint64_t held = pending_count_ + control_count_;
  for (const QueueHead& head : heads_) held += head.count;
  held_.set(held);
}

unsigned TxTask::take_held(rte_mbuf** out, unsigned max) {
  unsigned n = 0;
  for (uint16_t i = 0; i < control_count_ && n < max; ++i) out[n++] = control_[i];
  control_count_ = 0;
  for (uint16_t i = 0; i < pending_count_ && n < max; ++i) out[n++] = pending_[i];
  pending_count_ = 0;
  for (QueueHead& head : heads_) {
    for (uint16_t i = 0; i < head.count && n < max; ++i) out[n++] = head.pkts[head.first + i];
    head.count = 0;
  }
  backlogged_ = 0;
  publish_held();
  return n;
}

}  // namespace fcswitch

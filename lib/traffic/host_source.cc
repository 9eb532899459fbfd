#include "traffic/host_source.h"

#include <rte_mbuf.h>
#include <rte_ring.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <utility>

#include "traffic/flow_frame.h"

namespace fcswitch::lab {

HostSource::HostSource(std::string name, SwitchState& state, rte_mempool* pool,
                       const TickRate& ticks, const shaping::WireFraming& framing,
                       uint64_t line_rate_bps)
    : Task(std::move(name)),
      state_(state),
      pool_(pool),
      ticks_(ticks),
      framing_(framing),
      line_rate_bps_(line_rate_bps),
      flow_pacing_(shaping::kNoLineRate, ticks, framing) {}

HostSource::~HostSource() = default;

uint64_t pyrrha_blocked_ticks(const FlowSent& sent, uint64_t until) {
  uint64_t blocked = sent.pyrrha_blocked_ticks.read();
  if (const uint64_t since = sent.pyrrha_blocked_since.read(); since && until > since - 1)
    blocked += until - (since - 1);
  return blocked;
}

void HostSource::set_root_pauses(const pyrrha::HostRootPauses* pauses, int priority,
                                 uint64_t stage_bytes) {
  root_pauses_ = pauses;
  pyrrha_priority_ = priority;
  pyrrha_stage_bytes_ = stage_bytes;
}

void HostSource::add_flow(const FlowSpec& spec, std::vector<uint8_t> frame, FlowSent& sent,
                          const TransportSettings& transport,
                          std::vector<pyrrha::RootId> pyrrha_path) {
  // Pyrrha controls one class: the flows of the others never wait for a root.
  if (!root_pauses_ || spec.priority != pyrrha_priority_) pyrrha_path.clear();
  Flow flow{spec,
            ticks_.from_ns(spec.start_ns),
            spec.stop_ns == kNeverTicks ? kNeverTicks : ticks_.from_ns(spec.stop_ns),
            ticks_.from_ns(spec.on_ns),
            ticks_.from_ns(spec.on_ns + spec.off_ns),
            std::move(frame),
            std::nullopt,
            0,
            0,
            &sent,
            0,
            0,
            std::nullopt,
            std::nullopt,
            std::nullopt,
            0,
            std::move(pyrrha_path),
            kStaleGeneration,
            false,
            0,
            kNeverTicks,
            false};
  if (spec.rate_bps) {
    flow.pacer.emplace(flow_pacing_);
    flow.pacer->set_rate(flow_pacing_, spec.rate_bps);
  }
  const uint64_t frames =
      spec.size_bytes ? (spec.size_bytes + spec.frame_bytes - 1) / spec.frame_bytes : 0;
  if (spec.transport == FlowTransport::kWindow) {
    flow.window.emplace(transport.window, spec.frame_bytes, frames, ticks_);
  } else if (spec.transport != FlowTransport::kRaw) {
    if (const uint64_t window = transport.window_bytes(spec.transport)) {
      transport::WindowParams params = transport.window;
      params.window_bytes = window;
      params.reno = false;  // the rate engine is the congestion control; the window caps in flight
      flow.window.emplace(params, spec.frame_bytes, frames, ticks_);
    }
    uint64_t rate = line_rate_bps_;
    if (spec.transport == FlowTransport::kDcqcn) {
      flow.dcqcn.emplace(transport.dcqcn, line_rate_bps_, ticks_);
    } else {
      flow.timely.emplace(transport.timely, line_rate_bps_, ticks_);
      flow.frame_ticks = ticks_.for_bits(framing_.wire_bits(spec.frame_bytes), line_rate_bps_);
    }
    flow.pacer.emplace(flow_pacing_);
    flow.pacer->set_rate(flow_pacing_, rate);
    sent.rate_bps.set(rate);
    sent.lowest_rate_bps.set(rate);
  }
  if (flow.window) sent.window_bytes.set(flow.window->cwnd_bytes());
  if (spec.transport != FlowTransport::kRaw)
    transport_flows_.emplace(static_cast<uint32_t>(spec.id), flows_.size());
  // No timer runs yet: DCQCN's start with its first CNP, the RTO with the first frame sent.
  if (spec.closed_loop >= 0) ++closed_loop_flows_;
  const std::pair<uint64_t, size_t> key{flow.start_ticks, flows_.size()};
  pending_.insert(std::lower_bound(pending_.begin(), pending_.end(), key, std::greater<>()), key);
  flows_.push_back(std::move(flow));
}

void HostSource::start_due_flows(uint64_t now) {
  while (!pending_.empty() && pending_.back().first <= now) {
    const size_t index = pending_.back().second;
    pending_.pop_back();
    live_.insert(std::lower_bound(live_.begin(), live_.end(), index), index);
  }
}

void HostSource::index_flows(uint64_t now) {
  live_.clear();
  pending_.clear();
  for (size_t i = 0; i < flows_.size(); ++i) {
    if (flows_[i].start_ticks > now) {
      pending_.emplace_back(flows_[i].start_ticks, i);
    } else if (!finished(flows_[i], now)) {
      live_.push_back(i);
    }
  }
  std::sort(pending_.begin(), pending_.end(), std::greater<>());
}

void HostSource::set_pyrrha_path(uint32_t id, std::vector<pyrrha::RootId> path) {
  for (Flow& flow : flows_) {
    if (static_cast<uint32_t>(flow.spec.id) != id) continue;
    if (!root_pauses_ || flow.spec.priority != pyrrha_priority_) return;
    flow.path = std::move(path);
    flow.pyrrha_generation = kStaleGeneration;
    return;
  }
}

bool HostSource::look_at_roots(Flow& flow, uint64_t now) {
  if (now < flow.start_ticks) return false;  // polled at its start (opens_at), looked at then
  flow.pyrrha_generation = root_pauses_->generation();
  const bool held = root_pauses_->blocks(flow.path);
  if (held == flow.held) return held;
  if (held) {
    flow.held = true;
    flow.held_since_ticks = now;
    flow.sent->pyrrha_pauses.increment();
    flow.sent->pyrrha_blocked_since.set(now + 1);
  } else {
    end_hold(flow, now);
  }
  return held;
}

void HostSource::end_hold(Flow& flow, uint64_t now) {
  flow.held = false;
  flow.sent->pyrrha_blocked_ticks.add(now - flow.held_since_ticks);
  flow.sent->pyrrha_blocked_since.set(0);
}

HostSource::Flow* HostSource::transport_flow(uint32_t id) {
  const auto it = transport_flows_.find(id);
  return it == transport_flows_.end() ? nullptr : &flows_[it->second];
}

FlowSent* HostSource::retired_transport_flow(uint32_t id) {
  const auto it = retired_transport_flows_.find(id);
  return it == retired_transport_flows_.end() ? nullptr : it->second;
}

void HostSource::on_ack(uint32_t id, uint64_t cumulative, uint64_t echoed, uint64_t now) {
  Flow* flow = transport_flow(id);
  if (!flow) {
    if (FlowSent* retired = retired_transport_flow(id)) retired->acks.increment();
    return;
  }
  flow->sent->acks.increment();
  if (flow->timely && echoed != kNoStamp && now >= echoed) {
    // TIMELY §3: the completion time less the send time less the frame's serialisation.
    const uint64_t rtt = now - echoed;
    flow->timely->on_rtt(now, rtt > flow->frame_ticks ? rtt - flow->frame_ticks : 0);
    set_rate(*flow, flow->timely->rate_bps());
  }
  if (!flow->window) return;
  const bool was_complete = flow->window->complete();
  flow->window->on_ack(now, cumulative);
  schedule_timers(static_cast<size_t>(flow - flows_.data()));
  flow->sent->fast_retransmits.set(flow->window->fast_retransmits());
  flow->sent->window_bytes.set(flow->window->cwnd_bytes());
  if (!was_complete && flow->window->complete()) {
    flow->sent->done_ticks.set(now);
    // Its last frames were acknowledged while a root held what was left of it: nothing is.
    if (flow->held) end_hold(*flow, now);
  }
}

void HostSource::on_cnp(uint32_t id, uint64_t now) {
  Flow* flow = transport_flow(id);
  if (!flow) {
    if (FlowSent* retired = retired_transport_flow(id)) retired->cnps.increment();
    return;
  }
  if (!flow->dcqcn) return;
  flow->sent->cnps.increment();
  flow->dcqcn->on_cnp(now);
  run_dcqcn(*flow, now);
  schedule_timers(static_cast<size_t>(flow - flows_.data()));
}

void HostSource::schedule_timers(size_t index) {
  Flow& flow = flows_[index];
  uint64_t due = flow.window ? flow.window->next_event_ticks() : kNeverTicks;
  if (flow.dcqcn) due = std::min(due, flow.dcqcn->next_event_ticks());
  if (due >= flow.timer_entry_ticks) return;  // its entry comes first: looked at again then
  flow.timer_entry_ticks = due;
  timers_.emplace(due, index);
}

void HostSource::index_timers() {
  timers_ = {};
  rate_moved_.clear();
  for (size_t i = 0; i < flows_.size(); ++i) {
    flows_[i].timer_entry_ticks = kNeverTicks;
    schedule_timers(i);
    if (flows_[i].rate_moved) rate_moved_.push_back(i);
  }
}

void HostSource::run_transport_timers(uint64_t now) {
  // Each flow's timers are its own: which flows run them first changes nothing.
  for (const size_t index : rate_moved_) {
    Flow& flow = flows_[index];
    flow.rate_moved = false;
    set_rate(flow, flow.dcqcn->rate_bps());
  }
  rate_moved_.clear();
  while (!timers_.empty() && timers_.top().first <= now) {
    const auto [due, index] = timers_.top();
    timers_.pop();
    Flow& flow = flows_[index];
    if (flow.timer_entry_ticks != due) continue;  // stale: a later entry replaced it
    flow.timer_entry_ticks = kNeverTicks;
    if (flow.dcqcn) run_dcqcn(flow, now);
    if (flow.window) {
      const uint64_t timeouts = flow.window->timeouts();
      flow.window->poll(now);
      if (flow.window->timeouts() != timeouts) {
        flow.sent->timeouts.set(flow.window->timeouts());
        flow.sent->window_bytes.set(flow.window->cwnd_bytes());
      }
    }
    schedule_timers(index);
  }
}

void HostSource::run_dcqcn(Flow& flow, uint64_t now) {
  flow.dcqcn->poll(now);
  set_rate(flow, flow.dcqcn->rate_bps());
}

void HostSource::set_rate(Flow& flow, uint64_t rate) {
  if (rate == flow.pacer->rate_bps()) return;
  flow.pacer->set_rate(flow_pacing_, rate);
  flow.sent->rate_bps.set(rate);
  if (rate < flow.sent->lowest_rate_bps.read()) flow.sent->lowest_rate_bps.set(rate);
}

bool HostSource::finished(const Flow& flow, uint64_t now) const {
  if (now >= flow.stop_ticks) return true;
  // A reliable flow is done when all of it is acknowledged (its sender stops at its size).
  if (flow.window) return flow.window->complete();
  return flow.spec.size_bytes && flow.bytes >= flow.spec.size_bytes;
}

uint64_t HostSource::opens_at(const Flow& flow, uint64_t now) const {
  uint64_t at = std::max(now, flow.start_ticks);
  if (flow.period_ticks && flow.spec.burst_packets) {
    // The period's burst goes out whole, into the off phase if it must; then the next period.
    const uint64_t period = (at - flow.start_ticks) / flow.period_ticks;
    if (period == flow.burst_period && flow.burst_sent >= flow.spec.burst_packets)
      at = flow.start_ticks + (period + 1) * flow.period_ticks;
  } else if (flow.period_ticks) {
    const uint64_t phase = (at - flow.start_ticks) % flow.period_ticks;
    if (phase >= flow.on_ticks) at += flow.period_ticks - phase;  // the next on phase
  }
  if (flow.pacer) at = std::max(at, flow.pacer->next_open_ticks());
  return at;
}

bool HostSource::send_one(Flow& flow, uint64_t now) {
  if (flow.window && !flow.window->can_send()) return false;
  // Pyrrha's class: no more than its stage waits in the NIC queue (see the header).
  if (!flow.path.empty() &&
      state_.egress_depth[kNicPort]->value(flow.spec.priority) >= pyrrha_stage_bytes_)
    return false;
  const uint64_t sequence = flow.window ? flow.window->next_sequence() : flow.sequence;
  // Every frame that has room for it carries its send time: TIMELY's RTT, every flow's delay.
  const bool timed = flow.frame.size() >= kTimedFrameMinBytes;
  switch (enqueue_host_frame(state_, pool_, flow.frame, flow.spec.priority, sequence,
                             timed ? now : kNoStamp, now, kQueueAheadPackets)) {
    case HostEnqueue::kQueued:
      break;
    case HostEnqueue::kNoMbuf:
      alloc_failures_.increment();  // the lab's pool is too small: the flow waits, nothing lost
      return false;
    case HostEnqueue::kQueueFull:
      return false;
  }
  const auto length = static_cast<uint32_t>(flow.frame.size());
  const bool fresh = sequence >= flow.sequence;
  if (fresh) {
    flow.sequence = sequence + 1;
    flow.bytes += length;
  } else {
    flow.sent->retransmissions.increment();
  }
  if (flow.window) {
    flow.window->on_sent(now, sequence);
    flow.sent->window_bytes.set(flow.window->cwnd_bytes());
  }
  if (flow.dcqcn) {
    flow.dcqcn->on_sent(now, length);
    // Its byte counter may have raised the rate: the pacer takes it at the next poll, as it
    // took every DCQCN rate then.
    if (!flow.rate_moved && flow.dcqcn->rate_bps() != flow.pacer->rate_bps()) {
      flow.rate_moved = true;
      rate_moved_.push_back(static_cast<size_t>(&flow - flows_.data()));
    }
  }
  if (flow.spec.burst_packets) {
    const uint64_t period = (now - flow.start_ticks) / flow.period_ticks;
    if (period != flow.burst_period) flow.burst_period = period, flow.burst_sent = 0;
    ++flow.burst_sent;
  }
  if (flow.window || flow.dcqcn) schedule_timers(static_cast<size_t>(&flow - flows_.data()));
  flow.sent->packets.increment();
  flow.sent->bytes.add(length);
  if (flow.pacer) flow.pacer->on_send(flow_pacing_, now, length);
  if (!flow.window && flow.spec.size_bytes && flow.bytes >= flow.spec.size_bytes)
    flow.sent->done_ticks.set(now);
  return true;
}

bool HostSource::poll(uint64_t now) {
  bool busy = false;
  run_transport_timers(now);
  // One frame per flow per round, rounds until no flow can send: flows of one priority share
  // their queue fairly. Under Pyrrha the stage has room for a frame or two per poll, so where
  // a poll starts would decide who sends: there the flows take turns from the one after the
  // last that sent (a round robin over sends), not from the poll's rotation.
  const size_t first = root_pauses_ ? after_last_sent_ : next_flow_;
  size_t last_sent = flows_.size();
  start_due_flows(now);
  const size_t from =
      static_cast<size_t>(std::lower_bound(live_.begin(), live_.end(), first) - live_.begin());
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0, j = from == live_.size() ? 0 : from; i < live_.size();
         ++i, j = j + 1 == live_.size() ? 0 : j + 1) {
      const size_t k = live_[j];
      Flow& flow = flows_[k];
      if (finished(flow, now) || held_by_pyrrha(flow, now) || opens_at(flow, now) > now) continue;
      if (send_one(flow, now)) progress = true, last_sent = k;
    }
    busy |= progress;
  }
  if (!flows_.empty()) next_flow_ = (next_flow_ + 1) % flows_.size();
  if (last_sent < flows_.size()) after_last_sent_ = (last_sent + 1) % flows_.size();
  std::erase_if(live_, [&](size_t k) { return finished(flows_[k], now); });
  if (closed_loop_flows_) retire_finished_closed_loop_flows(now);
  return busy;
}

void HostSource::retire_finished_closed_loop_flows(uint64_t now) {
  size_t kept = 0;
  size_t before_turn = 0;  // retired flows in front of the one whose turn is next (Pyrrha)
  for (size_t i = 0; i < flows_.size(); ++i) {
    Flow& flow = flows_[i];
    if (flow.spec.closed_loop >= 0 && finished(flow, now)) {
      // ACKs and CNPs for its last frames may still come: counted still (on_ack, on_cnp).
      if (flow.spec.transport != FlowTransport::kRaw)
        retired_transport_flows_.emplace(static_cast<uint32_t>(flow.spec.id), flow.sent);
      if (i < after_last_sent_) ++before_turn;
      --closed_loop_flows_;
      continue;
    }
    if (kept != i) flows_[kept] = std::move(flow);
    ++kept;
  }
  if (kept == flows_.size()) return;  // none finished: the indices stand
  flows_.erase(flows_.begin() + static_cast<std::ptrdiff_t>(kept), flows_.end());
  transport_flows_.clear();
  for (size_t i = 0; i < flows_.size(); ++i)
    if (flows_[i].spec.transport != FlowTransport::kRaw)
      transport_flows_.emplace(static_cast<uint32_t>(flows_[i].spec.id), i);
  const size_t n = std::max<size_t>(flows_.size(), 1);
  next_flow_ %= n;
  after_last_sent_ = (after_last_sent_ - before_turn) % n;
  index_flows(now);
  index_timers();
}

uint64_t HostSource::own_event_ticks(const Flow& flow, uint64_t now) const {
  if (finished(flow, now)) return kNeverTicks;
  uint64_t at = opens_at(flow, now);
  // A window that waits for ACKs opens by an arrival (the sink wakes the host), or by the RTO.
  if (flow.window && !flow.window->can_send()) at = kNeverTicks;
  // Held by a paused root: the RESUME wakes it (it comes through the sink).
  if (!flow.path.empty() && held_now(flow)) at = kNeverTicks;
  if (flow.window) at = std::min(at, flow.window->next_event_ticks());
  if (flow.dcqcn) at = std::min(at, flow.dcqcn->next_event_ticks());
  return at > now && at < flow.stop_ticks ? at : kNeverTicks;
}

uint64_t HostSource::next_event_ticks(uint64_t now) const {
  // The earliest over every flow, as a walk over all of them finds it: the live ones, and the
  // pending ones from the earliest start while it is earlier than what was found. A flow acts
  // no earlier than its start (opens_at): no transport timer runs before it has sent (see
  // add_flow). A finished flow acts no more (own_event_ticks), though its timers still run.
  uint64_t next = kNeverTicks;
  for (const size_t k : live_) next = std::min(next, own_event_ticks(flows_[k], now));
  for (auto it = pending_.rbegin(); it != pending_.rend() && it->first < next; ++it)
    next = std::min(next, own_event_ticks(flows_[it->second], now));
  return next;
}

}  // namespace fcswitch::lab

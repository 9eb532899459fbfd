#include "lab/host_source.h"

#include <rte_mbuf.h>
#include <rte_ring.h>

#include <algorithm>
#include <cstring>

#include "core/packet_meta.h"
#include "lab/flow_frame.h"

namespace fcswitch::lab {

HostSource::HostSource(std::string name, SwitchState& state, rte_mempool* pool,
                       const TickRate& ticks, const shaping::WireFraming& framing)
    : Task(std::move(name)), state_(state), pool_(pool), ticks_(ticks), framing_(framing) {}

HostSource::~HostSource() = default;

void HostSource::add_flow(const FlowSpec& spec, std::vector<uint8_t> frame, FlowSent& sent) {
  Flow flow{spec,
            ticks_.from_ns(spec.start_ns),
            spec.stop_ns == kNeverTicks ? kNeverTicks : ticks_.from_ns(spec.stop_ns),
            ticks_.from_ns(spec.on_ns),
            ticks_.from_ns(spec.on_ns + spec.off_ns),
            std::move(frame),
            std::nullopt,
            0,
            0,
            &sent};
  if (spec.rate_bps) {
    // Exact pacing from the flow's start: no line rate of its own, no catch-up (the source
    // is polled whenever it said it would act).
    flow.pacer.emplace(shaping::kNoLineRate, ticks_, framing_, 0);
    flow.pacer->set_rate(spec.rate_bps);
  }
  flows_.push_back(std::move(flow));
}

bool HostSource::finished(const Flow& flow, uint64_t now) const {
  return now >= flow.stop_ticks || (flow.spec.size_bytes && flow.bytes >= flow.spec.size_bytes);
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
  rte_ring* queue = state_.egress_ring(kNicPort, flow.spec.priority, kApplicationPort);
  if (rte_ring_count(queue) >= kQueueAheadPackets) return false;
  rte_mbuf* m = rte_pktmbuf_alloc(pool_);
  if (!m) {
    alloc_failures_.increment();  // the lab's pool is too small: the flow waits, nothing lost
    return false;
  }
  const auto length = static_cast<uint16_t>(flow.frame.size());
  auto* data = rte_pktmbuf_mtod(m, uint8_t*);
  std::memcpy(data, flow.frame.data(), length);
  m->data_len = length;
  m->pkt_len = length;
  stamp_flow_sequence(data, flow.sequence);
  const PacketMeta meta{.ingress_port = kApplicationPort,
                        .priority = flow.spec.priority,
                        .egress_queue = flow.spec.priority,
                        .lossy = 0,
                        .pabo = 0,
                        .charged_bytes = length};
  state_.charge(meta, kNicPort);
  state_.meta(m) = meta;
  state_.meta.rx_ticks(m) = now;  // the host's queue is where it waits: its residence time
  rte_ring_sp_enqueue(queue, m);  // room checked above; the source is the only producer
  ++flow.sequence;
  flow.bytes += length;
  if (flow.spec.burst_packets) {
    const uint64_t period = (now - flow.start_ticks) / flow.period_ticks;
    if (period != flow.burst_period) flow.burst_period = period, flow.burst_sent = 0;
    ++flow.burst_sent;
  }
  flow.sent->packets.increment();
  flow.sent->bytes.add(length);
  if (flow.pacer) flow.pacer->on_send(now, length);
  if (flow.spec.size_bytes && flow.bytes >= flow.spec.size_bytes) flow.sent->done_ticks.set(now);
  return true;
}

bool HostSource::poll(uint64_t now) {
  bool busy = false;
  // One frame per flow per round, rounds until no flow can send: flows of one priority share
  // their queue fairly.
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < flows_.size(); ++i) {
      Flow& flow = flows_[(next_flow_ + i) % flows_.size()];
      if (finished(flow, now) || opens_at(flow, now) > now) continue;
      progress |= send_one(flow, now);
    }
    busy |= progress;
  }
  if (!flows_.empty()) next_flow_ = (next_flow_ + 1) % flows_.size();
  return busy;
}

uint64_t HostSource::next_event_ticks(uint64_t now) const {
  uint64_t next = kNeverTicks;
  for (const Flow& flow : flows_) {
    if (finished(flow, now)) continue;
    const uint64_t at = opens_at(flow, now);
    if (at > now && at < flow.stop_ticks) next = std::min(next, at);
  }
  return next;
}

}  // namespace fcswitch::lab

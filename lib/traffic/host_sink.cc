#include "traffic/host_sink.h"

#include <rte_mbuf.h>
#include <rte_ring.h>

#include <algorithm>

#include "core/units.h"
#include "switch/burst.h"
#include "switch/pyrrha_wire.h"
#include "traffic/flow_frame.h"
#include "traffic/host_egress.h"
#include "traffic/host_source.h"
#include "transport/cnp_pacer.h"
#include "transport/window_receiver.h"
#include "wire/big_endian.h"
#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/ecn_mark.h"
#include "wire/frame_header.h"
#include "wire/pyrrha_frame.h"
#include "wire/roce_cnp.h"

namespace fcswitch::lab {

HostSink::HostSink(std::string name, wire::MacAddress mac, SwitchState& state,
                   const PriorityMaps& maps, FlowReceivedRecords& flows,
                   uint32_t bounce_capacity_packets)
    : Task(std::move(name)),
      mac_(mac),
      state_(state),
      classifier_(maps),
      flows_(flows),
      bounce_capacity_packets_(bounce_capacity_packets) {}

struct HostSink::Receiver {
  bool acks = false;                                // an ACK per frame
  bool timed = false;                               // ACKs echo the frame's send time (TIMELY)
  std::optional<transport::WindowReceiver> window;  // the cumulative ACK of a window
  std::optional<transport::CnpPacer> cnp;           // DCQCN's notification point
  std::vector<uint8_t> ack_frame, cnp_frame;
  uint8_t ack_priority = 0, cnp_priority = 0;
};

HostSink::~HostSink() = default;

void HostSink::add_transport_flow(const FlowSpec& flow, const FlowFrameSpec& frames,
                                  const TransportSettings& transport, rte_mempool* pool,
                                  const TickRate& ticks) {
  pool_ = pool;
  receivers_[static_cast<uint32_t>(flow.id)] =
      make_receiver(flow.transport, frames, transport, ticks);
}

void HostSink::expect_transport_flow(uint32_t flow, FlowTransport transport,
                                     const TransportSettings& settings, rte_mempool* pool,
                                     const TickRate& ticks) {
  pool_ = pool;
  expected_.insert_or_assign(flow, Expected{transport, settings, ticks});
}

std::unique_ptr<HostSink::Receiver> HostSink::make_receiver(FlowTransport transport,
                                                            const FlowFrameSpec& frames,
                                                            const TransportSettings& settings,
                                                            const TickRate& ticks) const {
  auto r = std::make_unique<Receiver>();
  const auto priority_of = [&](const std::vector<uint8_t>& frame) {
    return classifier_.classify(wire::parse_frame_header(frame.data(), frame.size()));
  };
  if (const uint64_t window = settings.window_bytes(transport))
    r->window.emplace(window / frames.frame_bytes);
  if (acknowledged(settings, transport)) {
    r->acks = true;
    r->timed = transport == FlowTransport::kTimely;
    r->ack_frame = make_ack_frame(
        frames, static_cast<uint8_t>(settings.ack_dscp < 0 ? frames.dscp : settings.ack_dscp),
        r->timed);
    r->ack_priority = priority_of(r->ack_frame);
  }
  if (transport == FlowTransport::kDcqcn) {
    r->cnp.emplace(settings.dcqcn.cnp_interval_ns, ticks);
    r->cnp_frame = make_cnp_frame(
        frames, static_cast<uint8_t>(settings.cnp_dscp < 0 ? frames.dscp : settings.cnp_dscp));
    r->cnp_priority = priority_of(r->cnp_frame);
  }
  return r;
}

HostSink::Receiver* HostSink::receiver_from_first_frame(const uint8_t* data,
                                                        const wire::FrameHeader& header,
                                                        uint32_t flow, uint32_t wire_bytes) {
  const auto it = expected_.find(flow);
  // A flow's frames are IPv4 (traffic/flow_frame.h): its addresses are in that header.
  if (it == expected_.end() || header.l3 != wire::L3Kind::kIpv4) return nullptr;
  const uint8_t* ip = data + header.l3_offset;
  const FlowFrameSpec frames{
      header.src, header.dst, wire::load_be32(ip + 12), wire::load_be32(ip + 16), header.dscp, flow,
      wire_bytes, false};
  auto receiver =
      make_receiver(it->second.transport, frames, it->second.settings, it->second.ticks);
  Receiver* r = receiver.get();
  receivers_[flow] = std::move(receiver);
  expected_.erase(it);
  return r;
}

void HostSink::send(const std::vector<uint8_t>& frame, uint8_t priority, uint64_t sequence,
                    uint64_t send_time, uint64_t now) {
  // Behind whatever the host sends on that priority, but never held back by the flows' own
  // queue-ahead limit: only a full ring refuses it (an ACK or CNP lost, as a NIC would).
  if (enqueue_host_frame(state_, pool_, frame, priority, sequence, send_time, now, UINT32_MAX) ==
      HostEnqueue::kQueued) {
    transport_sent_.increment();
  } else {
    transport_refused_.increment();
  }
}

void HostSink::answer(Receiver& r, const uint8_t* data, const FlowStamp& stamp, bool ce,
                      uint64_t now) {
  FlowReceived& flow = flows_[stamp.flow];
  if (ce) flow.ce_marked.increment();
  if (ce && r.cnp && r.cnp->on_ce(now)) {
    send(r.cnp_frame, r.cnp_priority, kNoStamp, kNoStamp, now);
    flow.cnps_sent.increment();
  }
  if (r.acks) {
    // Without a window the ACK only carries the RTT's echo: one past the highest frame seen.
    const uint64_t cumulative =
        r.window ? r.window->cumulative() : std::max(flow.next_sequence, stamp.sequence + 1);
    send(r.ack_frame, r.ack_priority, cumulative, r.timed ? read_flow_send_time(data) : kNoStamp,
         now);
    flow.acks_sent.increment();
  }
}

bool HostSink::take_transport_frame(const uint8_t* data, uint32_t length, uint64_t now) {
  if (!source_) return false;
  if (const auto ack = read_flow_ack(data, length)) {
    source_->on_ack(ack->flow, ack->sequence,
                    length >= kTimedFrameMinBytes ? read_flow_send_time(data) : kNoStamp, now);
  } else if (const auto qp = wire::read_roce_cnp(data, length)) {
    source_->on_cnp(*qp, now);
  } else {
    return false;
  }
  transport_received_.increment();
  return true;
}

bool HostSink::resend_bounced(rte_mbuf* m, const wire::FrameHeader& header) {
  // Bounced all the way back to its source: into the host's bounce queue, sent before its
  // flows' frames, shim and all (PABO §II-G, §III: the sender's buffer takes it again).
  const uint8_t priority = classifier_.classify(header);
  constexpr int port = HostSource::kNicPort;
  rte_ring* ring = has_priority(state_.pabo_queues, priority)
                       ? state_.bounce_rings[port][priority].get()
                       : nullptr;
  const uint64_t queued =
      ring ? state_.pabo_depth[port]->value(SwitchState::pabo_slot(priority, true, false)) : 0;
  if (!ring || queued >= bounce_capacity_packets_) {
    bounce_full_.increment();
    return false;
  }
  const PacketMeta meta{.ingress_port = port,
                        .priority = priority,
                        .egress_queue = priority,
                        .lossy = 0,
                        .pabo = static_cast<uint8_t>(PaboSubqueue::kBounce),
                        .charged_bytes = rte_pktmbuf_pkt_len(m)};
  state_.charge(meta, port);
  state_.meta(m) = meta;
  rte_ring_sp_enqueue(ring, m);  // the ring holds more than the capacity
  state_.egress_enqueued[port].increment();
  resent_.increment();
  return true;
}

void HostSink::take_pyrrha_frame(const uint8_t* data, uint32_t length) {
  pyrrha_frames_.increment();
  // RX checked it (a refused one never gets here); decoded again for its fields.
  const auto decoded = wire::decode_pyrrha(data, length);
  if (!root_pauses_ || decoded.status != wire::ControlDecodeStatus::kOk ||
      decoded.frame.priority != pyrrha_priority_)
    return;
  root_pauses_->apply(to_pyrrha_message(decoded.frame, HostSource::kNicPort));
}

void HostSink::receive(const uint8_t* data, uint32_t length, uint32_t wire_bytes, uint64_t now,
                       const wire::PaboShim* shim) {
  constexpr int port = HostSource::kNicPort;
  const wire::ControlFrameKind kind = wire::control_frame_kind(data, length, 0);
  if (kind == wire::ControlFrameKind::kCredit) {
    // RX passed it on for the resynchronisation only (a switch's FWD does the same).
    state_.resynchronise(port, wire::decode_credit(data, length).frame);
    credit_frames_.increment();
    return;
  }
  if (kind == wire::ControlFrameKind::kPyrrha) {
    // In order with the data, as the switch sent it; the source, polled after the sink, acts
    // on it in the same poll of the host (Pyrrha §4.4).
    take_pyrrha_frame(data, length);
    return;
  }
  const auto header = wire::parse_frame_header(data, length);
  if (header.status != wire::FrameStatus::kOk) {
    foreign_.increment();
    return;
  }
  // Every frame the link brought counts for CBFC's ABR, ours or not: the switch counted it in
  // its FCTBS when it sent it.
  state_.received_blocks[SwitchState::occupancy_slot(port, classifier_.classify(header))].add(
      wire::credit_blocks(wire_bytes));
  if (header.dst == mac_ && take_transport_frame(data, length, now)) return;  // ACK, CNP
  // A flow's frame reaching another host (flooded: no route to its destination) is not a
  // delivery: counting it would credit the flow once per host the flood reached.
  const auto stamp = read_flow_stamp(data, length);
  if (header.dst != mac_ || !stamp || stamp->flow >= flows_.size()) {
    foreign_.increment();
    return;
  }
  FlowReceived& flow = flows_[stamp->flow];
  if (!receivers_.empty() || !expected_.empty()) {
    const auto it = receivers_.find(stamp->flow);
    Receiver* receiver = it != receivers_.end() ? it->second.get()
                         : expected_.empty()
                             ? nullptr
                             : receiver_from_first_frame(data, header, stamp->flow, wire_bytes);
    if (receiver) {
      Receiver& r = *receiver;
      const bool ce = wire::read_ecn(data, header) == wire::EcnCodepoint::kCe;
      const bool fresh = !r.window || r.window->on_data(stamp->sequence).fresh;
      answer(r, data, *stamp, ce, now);
      if (!fresh) {
        flow.duplicates.increment();
        return;
      }
    }
  }
  uint64_t& next = flow.next_sequence;
  if (stamp->sequence < next) {
    flow.reordered.increment();
    // It was counted missing when the gap before it opened (late, or resent to fill it).
    if (flow.missing.read()) flow.missing.set(flow.missing.read() - 1);
  } else {
    if (stamp->sequence > next) flow.missing.add(stamp->sequence - next);
    next = stamp->sequence + 1;
  }
  // Its receive index is the count of distinct frames before it; its sequence, its send index.
  const uint64_t magnitude = displacement_magnitude(flow.packets.read(), stamp->sequence);
  if (magnitude) flow.displaced.increment();
  if (magnitude > flow.max_displacement.read()) flow.max_displacement.set(magnitude);
  flow.displacement[displacement_bucket(magnitude)].increment();
  flow.packets.increment();
  flow.bytes.add(wire_bytes);
  if (flow.complete_at_bytes && flow.bytes.read() >= flow.complete_at_bytes) {
    flow.complete_at_bytes = 0;  // told once
    if (on_complete_) on_complete_(stamp->flow, now);
  }
  if (length >= kTimedFrameMinBytes) {
    const uint64_t sent = read_flow_send_time(data);
    const uint64_t delay = now > sent ? now - sent : 0;
    flow.delay_samples.increment();
    flow.delay_ticks_sum.add(delay);
    if (delay > flow.delay_ticks_max.read()) flow.delay_ticks_max.set(delay);
  }
  FlowBounces& b = flow.bounces;
  const wire::PaboShim none;
  const wire::PaboShim& pabo = shim ? *shim : none;
  if (pabo.bounces) b.bounced.increment();
  b.max_distance[std::min<int>(pabo.max_distance, FlowBounces::kMaxDistances - 1)].increment();
  b.bounce_count[std::min<int>(pabo.bounces, FlowBounces::kMaxCounts - 1)].increment();
  if (!flow.first_ticks.read()) flow.first_ticks.set(now + 1);
  flow.last_ticks.set(now);
}

bool HostSink::poll(uint64_t now) {
  rte_mbuf* pkts[kBurstSize];
  rte_ring* ring = state_.fwd_rings[HostSource::kNicPort].get();
  const unsigned n =
      rte_ring_sc_dequeue_burst(ring, reinterpret_cast<void**>(pkts), kBurstSize, nullptr);
  if (n) state_.rewind_if_emptied(ring);
  unsigned done = 0;  // what is left to free, moved to the front
  for (unsigned i = 0; i < n; ++i) {
    rte_mbuf* m = pkts[i];
    wire::PaboShim shim;
    const wire::PaboShim* bounced = nullptr;
    if (state_.pabo_queues) {
      const auto header =
          wire::parse_frame_header(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m));
      if (header.status == wire::FrameStatus::kOk && header.has_pabo_shim()) {
        if (header.dst != mac_) {
          if (resend_bounced(m, header)) continue;  // the bounce queue has it now
          foreign_.increment();  // its full bounce queue refused it: not a delivery
          pkts[done++] = m;
          continue;
        }
        // Ours: what PABO did to it goes into the flow's statistics; the frame is as sent.
        uint8_t* data = rte_pktmbuf_mtod(m, uint8_t*);
        shim = wire::read_pabo_shim(data + header.pabo_offset);
        wire::remove_pabo_shim(data, header.pabo_offset);
        rte_pktmbuf_adj(m, static_cast<uint16_t>(wire::kPaboShimBytes));
        bounced = &shim;
      }
    }
    pkts[done++] = m;
    receive(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), rte_pktmbuf_pkt_len(m),
            now, bounced);
  }
  if (done) rte_pktmbuf_free_bulk(pkts, done);
  return n > 0;
}

}  // namespace fcswitch::lab

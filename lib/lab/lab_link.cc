#include "lab/lab_link.h"

#include <algorithm>

#include "core/units.h"

namespace fcswitch::lab {

LabLink::LabLink(LinkFifo* from, LinkFifo* to, const LabLinkParams& params, const TickRate& ticks)
    : from_(from),
      to_(to),
      delay_ticks_(ticks.from_ns(params.delay_ns)),
      wire_(shaping::kNoLineRate, params.rate_bps, ticks, params.framing, params.catch_up_ticks),
      data_pool_(params.data_pool) {
  // At most one minimum frame per minimum wire time can be under way during the delay, plus
  // what a late poll may start at once.
  const uint64_t min_frame_ticks =
      std::max<uint64_t>(1, ticks.for_bits(params.framing.wire_bits(0), params.rate_bps));
  wire_frames_.resize((delay_ticks_ + params.catch_up_ticks) / min_frame_ticks + 4);
}

LabLink::~LabLink() {
  discard_in_flight();
}

void LabLink::set_up(bool up) {
  if (!up && up_) {
    for (unsigned i = 0; i < count_; ++i)
      count_data_loss(wire_frames_[(head_ + i) % wire_frames_.size()].frame);
    lost_down_.add(discard_in_flight());
  }
  up_ = up;
}

bool LabLink::poll(uint64_t now) {
  delivered_ = took_ = false;
  if (!up_) {
    // What the port sends falls off the cut end, at the port's rate: a sender with no rate of
    // its own (a line-rate flow) would otherwise refill its ring at once, for ever, in one tick.
    rte_mbuf* m;
    while (wire_.may_send(now) && from_->dequeue(&m)) {
      wire_.on_send(now, rte_pktmbuf_pkt_len(m));
      count_data_loss(m);
      rte_pktmbuf_free(m);
      lost_down_.increment();
      took_ = true;
    }
    return took_;
  }
  while (count_ && wire_frames_[head_].arrival_ticks <= now) {
    rte_mbuf* m = wire_frames_[head_].frame;
    head_ = next_slot(head_);
    --count_;
    const uint32_t length = rte_pktmbuf_pkt_len(m);
    if (!to_->enqueue(m)) {
      count_data_loss(m);
      rte_pktmbuf_free(m);
      rx_missed_.increment();
    } else {
      frames_delivered_.increment();
      bytes_delivered_.add(length);
    }
    delivered_ = true;
  }
  while (count_ < wire_frames_.size() && wire_.may_send(now)) {
    rte_mbuf* m;
    if (!from_->dequeue(&m)) break;
    wire_.on_send(now, rte_pktmbuf_pkt_len(m));
    // The last bit leaves when the wire frees; it arrives one propagation delay later.
    unsigned tail = head_ + count_;  // count_ < size: one wrap at most
    if (tail >= wire_frames_.size()) tail -= static_cast<unsigned>(wire_frames_.size());
    wire_frames_[tail] = OnWire{m, wire_.next_open_ticks() + delay_ticks_};
    ++count_;
    took_ = true;
  }
  return delivered_ || took_;
}

uint64_t LabLink::next_event_ticks() const {
  if (!up_) return from_->empty() ? kNeverTicks : wire_.next_open_ticks();
  uint64_t next = count_ ? wire_frames_[head_].arrival_ticks : kNeverTicks;
  if (!from_->empty() && count_ < wire_frames_.size())
    next = std::min(next, wire_.next_open_ticks());
  return next;
}

unsigned LabLink::discard_in_flight() {
  const unsigned n = count_;
  for (; count_; --count_) {
    rte_pktmbuf_free(wire_frames_[head_].frame);
    head_ = next_slot(head_);
  }
  return n;
}

}  // namespace fcswitch::lab

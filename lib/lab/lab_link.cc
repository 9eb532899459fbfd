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
  // what a late poll may start at once, plus what a receiving end that runs behind has not
  // taken yet; and the slot always empty.
  const uint64_t min_frame_ticks =
      std::max<uint64_t>(1, ticks.for_bits(params.framing.wire_bits(0), params.rate_bps));
  wire_frames_.resize(
      (delay_ticks_ + params.catch_up_ticks + params.receiver_lag_ticks) / min_frame_ticks + 5);
}

LabLink::~LabLink() {
  discard_in_flight();
}

void LabLink::set_up(bool up) {
  if (!up && up_) {
    const uint32_t tail = tail_.load(std::memory_order_acquire);
    for (uint32_t i = head_.load(std::memory_order_relaxed); i != tail; i = next_slot(i))
      count_data_loss(wire_frames_[i].frame);
    lost_down_.add(discard_in_flight());
  }
  up_ = up;
}

bool LabLink::deliver(uint64_t now) {
  if (!up_) return false;  // set_up(false) took what was on the wire
  uint32_t head = head_.load(std::memory_order_relaxed);
  const uint32_t tail = tail_.load(std::memory_order_acquire);
  bool delivered = false;
  while (head != tail && wire_frames_[head].arrival_ticks <= now) {
    rte_mbuf* m = wire_frames_[head].frame;
    head = next_slot(head);
    const uint32_t length = rte_pktmbuf_pkt_len(m);
    if (!to_->enqueue(m)) {
      count_data_loss(m);
      rte_pktmbuf_free(m);
      rx_missed_.increment();
    } else {
      frames_delivered_.increment();
      bytes_delivered_.add(length);
    }
    delivered = true;
  }
  head_.store(head, std::memory_order_release);
  return delivered;
}

bool LabLink::take(uint64_t now) {
  bool took = false;
  first_taken_arrival_ticks_ = kNeverTicks;  // frames that fall off a cut end never arrive
  rte_mbuf* m;
  if (!up_) {
    // What the port sends falls off the cut end, at the port's rate: a sender with no rate of
    // its own (a line-rate flow) would otherwise refill its ring at once, for ever, in one tick.
    while (wire_.may_send(now) && from_->dequeue(&m)) {
      wire_.on_send(now, rte_pktmbuf_pkt_len(m));
      count_data_loss(m);
      rte_pktmbuf_free(m);
      lost_down_.increment();
      took = true;
    }
    return took;
  }
  uint32_t tail = tail_.load(std::memory_order_relaxed);
  const uint32_t head = head_.load(std::memory_order_acquire);
  while (next_slot(tail) != head && wire_.may_send(now)) {
    if (!from_->dequeue(&m)) break;
    wire_.on_send(now, rte_pktmbuf_pkt_len(m));
    // The last bit leaves when the wire frees; it arrives one propagation delay later.
    wire_frames_[tail] = OnWire{m, wire_.next_open_ticks() + delay_ticks_};
    if (!took) first_taken_arrival_ticks_ = wire_frames_[tail].arrival_ticks;
    tail = next_slot(tail);
    took = true;
  }
  tail_.store(tail, std::memory_order_release);
  return took;
}

uint64_t LabLink::next_delivery_ticks() const {
  const uint32_t head = head_.load(std::memory_order_relaxed);
  if (!up_ || head == tail_.load(std::memory_order_acquire)) return kNeverTicks;
  return wire_frames_[head].arrival_ticks;
}

uint64_t LabLink::next_take_ticks() const {
  if (from_->empty()) return kNeverTicks;
  if (up_ &&
      next_slot(tail_.load(std::memory_order_relaxed)) == head_.load(std::memory_order_acquire))
    // The wire is full: the delivery that frees a slot comes first (on one thread the same
    // poll takes next). Unreachable with the wire sized as above: split between two threads,
    // nothing would wake the sending end when the other thread delivers.
    return kNeverTicks;
  return wire_.next_open_ticks();
}

unsigned LabLink::discard_in_flight() {
  const uint32_t tail = tail_.load(std::memory_order_acquire);
  uint32_t head = head_.load(std::memory_order_relaxed);
  unsigned n = 0;
  for (; head != tail; head = next_slot(head), ++n) rte_pktmbuf_free(wire_frames_[head].frame);
  head_.store(head, std::memory_order_release);
  return n;
}

}  // namespace fcswitch::lab

#include "switch/tx_task.h"

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

namespace fcswitch {

TxTask::TxTask(std::string name, int port, uint16_t port_id, const SchedulerConfig& scheduler,
               SwitchState& state)
    : Task(std::move(name)), port_(port), port_id_(port_id), state_(state), scheduler_(scheduler) {}

bool TxTask::refill(int queue) {
  QueueHead& head = heads_[queue];
  head.first = 0;
  head.count = static_cast<uint16_t>(
      rte_ring_sc_dequeue_burst(state_.egress_rings[port_][queue].get(),
                                reinterpret_cast<void**>(head.pkts), kBurstSize, nullptr));
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
  state_.ingress_occupancy.release(
      port_, SwitchState::occupancy_slot(meta.ingress_port, meta.priority), meta.charged_bytes);
  if (meta.lossy) state_.lossy_pool.release(port_, 0, meta.charged_bytes);
  state_.egress_depth[port_]->release(0, meta.egress_queue, meta.charged_bytes);
  packets_[meta.egress_queue].increment();
  bytes_[meta.egress_queue].add(meta.charged_bytes);
}

bool TxTask::poll(uint64_t /*now_tsc*/) {
  // Fill the burst only once the NIC has taken the previous one, so that order is kept
  // and a newly eligible higher priority is not stuck behind a full burst for long.
  if (pending_count_ == 0) {
    for (int q = 0; q < kNumEgressQueues; ++q)
      if (!(backlogged_ >> q & 1u)) refill(q);
    std::array<uint32_t, kNumEgressQueues> head_bytes{};
    for (int q = 0; q < kNumEgressQueues; ++q)
      if (backlogged_ >> q & 1u) head_bytes[q] = head_length(q);
    while (pending_count_ < kBurstSize && backlogged_) {
      const int q = scheduler_.pick(backlogged_, head_bytes);
      if (q == EgressScheduler::kNone) break;
      QueueHead& head = heads_[q];
      rte_mbuf* m = head.pkts[head.first++];
      --head.count;
      scheduler_.on_sent(q, rte_pktmbuf_pkt_len(m));
      pending_meta_[pending_count_] = state_.meta(m);
      pending_[pending_count_++] = m;
      if (head.count == 0 && !refill(q)) {
        scheduler_.on_empty(q);
      } else {
        head_bytes[q] = head_length(q);  // only the queue just served has a new head
      }
    }
  }
  if (pending_count_ == 0) {
    publish_held();
    return false;
  }
  const uint16_t sent = rte_eth_tx_burst(port_id_, 0, pending_, pending_count_);
  for (uint16_t i = 0; i < sent; ++i) release(pending_meta_[i]);
  for (uint16_t i = sent; i < pending_count_; ++i) {
    pending_[i - sent] = pending_[i];
    pending_meta_[i - sent] = pending_meta_[i];
  }
  pending_count_ = static_cast<uint16_t>(pending_count_ - sent);
  publish_held();
  return true;
}

void TxTask::publish_held() {
  uint64_t held = pending_count_;
  for (const QueueHead& head : heads_) held += head.count;
  held_.set(held);
}

unsigned TxTask::take_held(rte_mbuf** out, unsigned max) {
  unsigned n = 0;
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

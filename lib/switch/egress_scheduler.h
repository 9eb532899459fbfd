#pragma once
// Chooses which egress queue of a port sends next: strict priority for the queues marked
// strict (highest priority first, the lossy queue below priority 0), then deficit weighted
// round robin (Shreedhar & Varghese, SIGCOMM '95) among the others. The caller says which
// queues are eligible — holding a packet and allowed by their flow-control gate — so a
// paused queue keeps its deficit and is simply skipped.

#include <array>
#include <cstdint>

#include "core/traffic_class.h"
#include "params/scheduler_params.h"

namespace fcswitch {

class EgressScheduler {
 public:
  static constexpr int kNone = -1;

  explicit EgressScheduler(const SchedulerConfig& config);

  // The queue to send from next, or kNone when no queue is eligible. `head_bytes[q]` is the
  // length of the packet at the head of queue q (read only for eligible DWRR queues).
  int pick(QueueMask eligible, const std::array<uint32_t, kNumEgressQueues>& head_bytes);
  // The head packet of `queue`, `bytes` long, was sent.
  void on_sent(int queue, uint32_t bytes);
  // `queue` ran empty: in DRR an empty queue forfeits its deficit.
  void on_empty(int queue);

  uint32_t deficit_bytes(int queue) const { return deficit_bytes_[queue]; }

 private:
  void advance();

  QueueMask strict_;
  std::array<uint32_t, kNumEgressQueues> quantum_bytes_{};
  std::array<uint32_t, kNumEgressQueues> deficit_bytes_{};
  int current_ = 0;
  bool quantum_given_ = false;  // current_ already earned its quantum on this visit
};

}  // namespace fcswitch

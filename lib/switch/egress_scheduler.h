#pragma once
// Chooses which egress queue of a port sends next: strict priority for the queues marked
// strict (highest priority first, the lossy queue below priority 0), then deficit weighted
// round robin (Shreedhar & Varghese, SIGCOMM '95) among the others. The caller says which
// queues are eligible — holding a packet and allowed by their flow-control gate — so a
// paused queue keeps its deficit and is simply skipped.

#include <array>
#include <bit>
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
  // Inline: asked once per packet sent.
  int pick(QueueMask eligible, const std::array<uint32_t, kNumEgressQueues>& head_bytes) {
    const QueueMask strict = eligible & strict_;
    if (strict) return highest_strict(strict);
    const QueueMask dwrr = eligible & ~strict_;
    if (!dwrr) return kNone;
    // Terminates: every full turn gives each eligible queue one more quantum (> 0).
    for (;;) {
      const int q = current_;
      if ((dwrr >> q) & 1u) {
        if (!quantum_given_) {
          deficit_bytes_[q] += quantum_bytes_[q];
          quantum_given_ = true;
        }
        if (deficit_bytes_[q] >= head_bytes[q]) return q;
      }
      advance();
    }
  }
  // `count` packets of `queue`, the only eligible queue, `bytes[i]` long, are sent one after
  // the other: the state pick() and on_sent() would leave, without asking per packet.
  void take_run(int queue, const uint32_t* bytes, int count) {
    if (((strict_ >> queue) & 1u) || count == 0) return;
    // pick() comes round to `queue` and gives it its quantum; while its deficit is short of
    // the head it goes round all the queues again, and `queue`, the only one eligible, gets
    // its quantum once a round. It stays the current queue, its quantum given, to the end.
    if (current_ != queue) {
      current_ = queue;
      quantum_given_ = false;
    }
    const uint32_t quantum = quantum_bytes_[queue];
    uint32_t deficit = deficit_bytes_[queue];
    if (!quantum_given_) {
      deficit += quantum;
      quantum_given_ = true;
    }
    for (int i = 0; i < count; ++i) {
      while (deficit < bytes[i]) deficit += quantum;
      deficit -= bytes[i];  // on_sent()
    }
    deficit_bytes_[queue] = deficit;
  }
  // The head packet of `queue`, `bytes` long, was sent.
  void on_sent(int queue, uint32_t bytes) {
    if ((strict_ >> queue) & 1u) return;
    deficit_bytes_[queue] = deficit_bytes_[queue] >= bytes ? deficit_bytes_[queue] - bytes : 0;
  }
  // `queue` ran empty: in DRR an empty queue forfeits its deficit.
  void on_empty(int queue);

  uint32_t deficit_bytes(int queue) const { return deficit_bytes_[queue]; }

 private:
  // Strict order: priority 7 first ... priority 0, then the lossy queue.
  static int highest_strict(QueueMask mask) {
    const QueueMask priorities = mask & ((1u << kNumPriorities) - 1);
    if (priorities) return 15 - std::countl_zero(static_cast<uint16_t>(priorities));
    return kLossyQueue;
  }
  void advance() {
    current_ = (current_ + 1) % kNumEgressQueues;
    quantum_given_ = false;
  }

  QueueMask strict_;
  std::array<uint32_t, kNumEgressQueues> quantum_bytes_{};
  std::array<uint32_t, kNumEgressQueues> deficit_bytes_{};
  int current_ = 0;
  bool quantum_given_ = false;  // current_ already earned its quantum on this visit
};

}  // namespace fcswitch

#include "switch/egress_scheduler.h"

#include <bit>

namespace fcswitch {

namespace {

// Strict order: priority 7 first ... priority 0, then the lossy queue.
int highest_strict(QueueMask mask) {
  const QueueMask priorities = mask & ((1u << kNumPriorities) - 1);
  if (priorities) return 15 - std::countl_zero(static_cast<uint16_t>(priorities));
  return kLossyQueue;
}

}  // namespace

EgressScheduler::EgressScheduler(const SchedulerConfig& config) : strict_(config.strict_queues) {
  for (int q = 0; q < kNumEgressQueues; ++q) {
    // A zero weight would never earn a quantum; config validation refuses it, and here it
    // is raised to one so that pick() always terminates.
    const uint32_t weight = config.weights[q] ? config.weights[q] : 1;
    quantum_bytes_[q] = weight * config.quantum_bytes_per_weight;
  }
}

int EgressScheduler::pick(QueueMask eligible,
                          const std::array<uint32_t, kNumEgressQueues>& head_bytes) {
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

void EgressScheduler::on_sent(int queue, uint32_t bytes) {
  if ((strict_ >> queue) & 1u) return;
  deficit_bytes_[queue] = deficit_bytes_[queue] >= bytes ? deficit_bytes_[queue] - bytes : 0;
}

void EgressScheduler::on_empty(int queue) {
  deficit_bytes_[queue] = 0;
  if (queue == current_) advance();
}

void EgressScheduler::advance() {
  current_ = (current_ + 1) % kNumEgressQueues;
  quantum_given_ = false;
}

}  // namespace fcswitch

#include "switch/egress_scheduler.h"

namespace fcswitch {

EgressScheduler::EgressScheduler(const SchedulerConfig& config) : strict_(config.strict_queues) {
  for (int q = 0; q < kNumEgressQueues; ++q) {
    // A zero weight would never earn a quantum; config validation refuses it, and here it
    // is raised to one so that pick() always terminates.
    const uint32_t weight = config.weights[q] ? config.weights[q] : 1;
    quantum_bytes_[q] = weight * config.quantum_bytes_per_weight;
  }
}

void EgressScheduler::on_empty(int queue) {
  deficit_bytes_[queue] = 0;
  if (queue == current_) advance();
}

}  // namespace fcswitch

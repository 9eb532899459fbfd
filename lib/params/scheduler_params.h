#pragma once
// How a port's egress scheduler serves its queues (switch/egress_scheduler.h): strict
// priority for the queues marked strict, deficit weighted round robin among the others.

#include <array>
#include <cstdint>

#include "core/traffic_class.h"

namespace fcswitch {

struct SchedulerConfig {
  QueueMask strict_queues = 0;
  std::array<uint32_t, kNumEgressQueues> weights{1, 1, 1, 1, 1, 1, 1, 1, 1};
  // Bytes of deficit a queue earns per unit of weight per round; one MTU-sized frame keeps
  // the number of rounds per pick small.
  uint32_t quantum_bytes_per_weight = 1536;
};

}  // namespace fcswitch

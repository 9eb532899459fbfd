#pragma once
// [metrics] and [trace]: where the Prometheus exposer listens, what the occupancy trace records.

#include <cstdint>
#include <string>

namespace fcswitch::config {

inline constexpr uint16_t kDefaultMetricsPort = 9417;

// [metrics]: absent, no exposer. `address` and `port` of /metrics.
struct MetricsConfig {
  std::string address = "127.0.0.1";
  uint16_t port = kDefaultMetricsPort;
  std::string listen() const { return address + ":" + std::to_string(port); }
};

// [trace]: ingress occupancy and input rate of each (port, lossless priority) every
// `interval`, into a ring of `samples` rows written to `file` (the lab's queues.csv columns).
struct TraceConfig {
  uint64_t interval_ns = 10'000;
  std::string file = "trace.csv";
  uint32_t samples = 1u << 20;  // rows buffered between two writes to the file
  bool start = true;            // false: wait for the telemetry command /fcswitch/trace
  uint8_t priorities = 0xFF;    // which priorities (of those with an engine) to record
};

}  // namespace fcswitch::config

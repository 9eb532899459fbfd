#pragma once
// One flow a workload asks the lab to start: who sends how much to whom, and when.

#include <cstdint>

namespace fcswitch::workload {

struct FlowRequest {
  int source_host = 0;
  int destination_host = 0;
  uint64_t size_bytes = 0;
  int64_t start_ns = 0;
};

}  // namespace fcswitch::workload

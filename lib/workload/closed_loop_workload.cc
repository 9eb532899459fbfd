#include "workload/closed_loop_workload.h"

#include "workload/uniform_random.h"

namespace fcswitch::workload {

ClosedLoopWorkload::ClosedLoopWorkload(FlowSizeCdf sizes, OtherRackHostPicker destinations,
                                       uint64_t seed)
    : sizes_(std::move(sizes)), destinations_(std::move(destinations)) {
  rng_of_host_.reserve(destinations_.host_count());
  for (int host = 0; host < destinations_.host_count(); ++host) {
    // std::seed_seq's mixing is specified by the standard: the same streams everywhere.
    std::seed_seq seeds{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                        static_cast<uint32_t>(host)};
    rng_of_host_.emplace_back(seeds);
  }
}

std::vector<FlowRequest> ClosedLoopWorkload::first_flows(int64_t start_ns) {
  std::vector<FlowRequest> flows;
  flows.reserve(rng_of_host_.size());
  for (int host = 0; host < destinations_.host_count(); ++host) {
    flows.push_back(next_flow(host, start_ns));
  }
  return flows;
}

FlowRequest ClosedLoopWorkload::next_flow(int host, int64_t finished_ns) {
  std::mt19937_64& rng = rng_of_host_.at(host);
  FlowRequest flow;
  flow.source_host = host;
  flow.destination_host = destinations_.pick(host, rng);
  flow.size_bytes = sizes_.sample_whole_bytes(uniform01(rng));
  flow.start_ns = finished_ns;
  return flow;
}

}  // namespace fcswitch::workload

#pragma once
// GFC §6.2.3's large-scale workload: "Each host randomly chooses a destination in different
// racks to start a new flow. Once this flow is finished, the host repeats the above process."
// Sizes come from a flow-size CDF (GFC Fig. 15: the enterprise workload).
//
// Each host has its own RNG, seeded from (seed, host), so a host's sequence of flows does not
// depend on the order in which other hosts' flows finish.

#include <cstdint>
#include <random>
#include <vector>

#include "workload/flow_request.h"
#include "workload/flow_size_cdf.h"
#include "workload/other_rack_host_picker.h"

namespace fcswitch::workload {

class ClosedLoopWorkload {
 public:
  ClosedLoopWorkload(FlowSizeCdf sizes, OtherRackHostPicker destinations, uint64_t seed);

  // Every host's first flow, all starting at start_ns, in host order.
  std::vector<FlowRequest> first_flows(int64_t start_ns);
  // `host`'s next flow, starting when its previous one finished.
  FlowRequest next_flow(int host, int64_t finished_ns);

 private:
  FlowSizeCdf sizes_;
  OtherRackHostPicker destinations_;
  std::vector<std::mt19937_64> rng_of_host_;
};

}  // namespace fcswitch::workload

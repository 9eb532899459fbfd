#pragma once
// GFC §6.2.3's closed loop during a lab run: "each host randomly chooses a destination in
// different racks to start a new flow. Once this flow is finished, the host repeats the above
// process." The first flows are expanded before the run like any workload's
// (closed_loop_first_flows); the lab asks for each host's next one when the destination has
// received all of its flow — the end of its FCT, which the host learns at once, as the
// simulator's application would.
//
// Each loop draws from workload::ClosedLoopWorkload: one stream a host, so a host's flows do
// not depend on when the others' finish, and the same scenario gives the same flows.

#include <cstdint>
#include <optional>
#include <vector>

#include "scenario/lab_scenario.h"
#include "workload/closed_loop_workload.h"

namespace fcswitch::lab {

// The first flow of each of `spec`'s hosts, in host order, all at its start: `base` (dscp,
// frame, transport) with src, dst, size, start and closed_loop = `loop`, loop_host set.
std::vector<FlowSpec> closed_loop_first_flows(const ClosedLoopSpec& spec, int loop,
                                              const FlowSpec& base);

class ClosedLoops {
 public:
  // The loops' streams, each past its first flows (drawn again, as expand_workloads did).
  explicit ClosedLoops(const std::vector<ClosedLoopSpec>& specs);

  // The flow that follows `finished` (of a closed loop), which completed at `now_ns`: from
  // the same host, to another host drawn from its stream, everything else as `finished`;
  // id is the caller's. nullopt from the loop's stop on.
  std::optional<FlowSpec> next(const FlowSpec& finished, uint64_t now_ns);

 private:
  std::vector<ClosedLoopSpec> specs_;
  std::vector<workload::ClosedLoopWorkload> loops_;
};

}  // namespace fcswitch::lab

#include "scenario/closed_loops.h"

namespace fcswitch::lab {

namespace {

workload::ClosedLoopWorkload loop_of(const ClosedLoopSpec& spec) {
  return workload::ClosedLoopWorkload(*spec.sizes, workload::OtherRackHostPicker(spec.racks),
                                      spec.seed);
}

FlowSpec flow_of(const ClosedLoopSpec& spec, const workload::FlowRequest& request,
                 const FlowSpec& base) {
  FlowSpec flow = base;
  flow.loop_host = request.source_host;
  flow.src = spec.nodes[request.source_host];
  flow.dst = spec.nodes[request.destination_host];
  flow.size_bytes = request.size_bytes;
  flow.start_ns = static_cast<uint64_t>(request.start_ns);
  return flow;
}

}  // namespace

std::vector<FlowSpec> closed_loop_first_flows(const ClosedLoopSpec& spec, int loop,
                                              const FlowSpec& base) {
  FlowSpec of_loop = base;
  of_loop.closed_loop = loop;
  std::vector<FlowSpec> flows;
  for (const workload::FlowRequest& request :
       loop_of(spec).first_flows(static_cast<int64_t>(spec.start_ns)))
    flows.push_back(flow_of(spec, request, of_loop));
  return flows;
}

ClosedLoops::ClosedLoops(const std::vector<ClosedLoopSpec>& specs) : specs_(specs) {
  for (const ClosedLoopSpec& spec : specs_) {
    loops_.push_back(loop_of(spec));
    loops_.back().first_flows(static_cast<int64_t>(spec.start_ns));
  }
}

std::optional<FlowSpec> ClosedLoops::next(const FlowSpec& finished, uint64_t now_ns) {
  const ClosedLoopSpec& spec = specs_.at(static_cast<size_t>(finished.closed_loop));
  if (now_ns >= spec.stop_ns) return std::nullopt;
  const workload::FlowRequest request = loops_[static_cast<size_t>(finished.closed_loop)].next_flow(
      finished.loop_host, static_cast<int64_t>(now_ns));
  return flow_of(spec, request, finished);
}

}  // namespace fcswitch::lab

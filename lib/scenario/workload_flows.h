#pragma once
// [[workloads]] entries (lab/workload_spec.h) expanded into the FlowSpecs the lab runs, before
// the run starts. Deterministic in the seed: each (entry, host) or (entry, incast) draws from
// its own RNG, seeded from (seed, entry index, entry's seed offset, host node or incast index),
// so adding a host or an entry leaves the other streams as they were.
//
// A closed-loop workload (GFC §6.2.3) gives its hosts' first flows here; the run makes the
// others (lab/closed_loops.h) from what `closed_loops` receives.

#include <cstdint>
#include <vector>

#include "scenario/lab_scenario.h"
#include "scenario/workload_hosts.h"
#include "scenario/workload_spec.h"

namespace fcswitch::lab {

// The flows of `workloads`, sorted by start time (stable: entry order, then host order, among
// equal times). Each FlowSpec has src, dst (node indices), dscp, frame_bytes, size_bytes and
// start_ns set; id and priority are the caller's (priority comes from the source's
// classifier, as for [[flows]]); stop_ns is kNeverTicks (a sized flow ends when it is sent)
// and the flow runs at line rate. A flow starts in [start, stop), stop defaulting to
// `duration_ns`; it may end after the run, then counts as not completed.
//
// `workload_of_flow`, when given, receives per returned flow the index of its entry in
// `workloads` (for messages that point at the entry: WorkloadSpec::where). `closed_loops`,
// when given, receives the closed-loop entries' run-time parts, indexed by the flows'
// closed_loop (an entry that starts at or after its stop has neither).
//
// Throws std::invalid_argument on a spec read_workloads would have refused (unknown host,
// no other rack, no CDF, load out of range).
std::vector<FlowSpec> expand_workloads(const std::vector<WorkloadSpec>& workloads,
                                       const HostInfo& hosts, uint64_t duration_ns, uint64_t seed,
                                       std::vector<size_t>* workload_of_flow = nullptr,
                                       std::vector<ClosedLoopSpec>* closed_loops = nullptr);

// The incast period of `spec` (period_ns, or the one that loads its slowest destination's link
// to `load`: workload::incast_period_ns), in ns.
uint64_t incast_period_of(const WorkloadSpec& spec, const HostInfo& hosts);

}  // namespace fcswitch::lab

#pragma once
// What each switch of a lab reports once, not per port (LabResult::switches): Pyrrha's rows
// (node/pyrrha_switch_counters.h) of the switches that run it, those FWD publishes. The bytes
// its queues held are left out: the run's shutdown has flushed them by the time the summary
// is written (pyrrha.csv has them over time, lab/lab_sampler.h).

#include <string>
#include <utility>
#include <vector>

#include "node/switch_node.h"
#include "results/lab_result.h"

namespace fcswitch::lab {

// `switches`: (name, switch) in node order, as LabNetwork::switch_nodes() gives them. Only the
// switches with something to report are in the result.
std::vector<SwitchResult> switch_results(
    const std::vector<std::pair<std::string, const SwitchNode*>>& switches);

}  // namespace fcswitch::lab

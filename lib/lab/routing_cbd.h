#pragma once
// Whether a lab scenario's routes have a cyclic buffer dependency (topology/buffer_dependency.h),
// for GFC §6.2.3's filter: Table 1 counts deadlocks only on networks "prone to generate CBD",
// which the topology and routes decide before the run. fclab --check prints it and summary.json
// holds it (`cbd`); tools/sweep/plan.py --cbd keeps only the networks with (or without) one.
//
// The flows: every host to every host on another switch (GFC §6.2.3's workload draws each
// destination "in different racks"; whatever a run's flows are, they are among these), over
// every ECMP member, after the switches' own `routes`. Links are named by their sending port,
// "S1:L3" — the queue that fills when L3's ingress from S1 is full, as the deadlock detector
// names the queues of a deadlock ("S1:L3:prio3").

#include <optional>
#include <string>
#include <vector>

#include "results/routing_cbd_result.h"
#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

// Nullopt when the scenario routes only statically ([topology] routing absent or "static").
std::optional<RoutingCbd> routing_cbd(const LabScenario& scenario);

}  // namespace fcswitch::lab

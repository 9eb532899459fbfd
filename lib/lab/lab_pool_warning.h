#pragma once
// Whether a lab's data pool ([lab] mbufs) may run out: the frames its network can hold, with
// its hosts queueing as TrafficHost does, and what fclab says before the run when that is more.

#include <optional>
#include <string>

#include "lab/lab_frame_capacity.h"
#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

// The data frames the scenario's network can hold at once (lab_frame_capacity.h), its hosts
// queueing as TrafficHost does.
LabFrameCapacity network_frame_capacity(const LabScenario& scenario);
// What to say before a run whose network can hold more data frames than [lab] mbufs: how many,
// where, and the pool that never runs out. Nothing when the pool holds them all.
std::optional<std::string> pool_may_run_out(const LabScenario& scenario);

}  // namespace fcswitch::lab

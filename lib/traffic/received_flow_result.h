#pragma once
// A flow's result (lab_result.h) from what its sink received (traffic/host_sink.h): shared by
// the lab's summary and fchost's.

#include "core/tick_rate.h"
#include "results/lab_result.h"
#include "traffic/host_sink.h"

namespace fcswitch::lab {

// What `rx` says of the flow into `result`: packets, bytes, loss, reordering (Reorder Density)
// and per-packet delay.
void add_received(FlowResult& result, const FlowReceived& rx, const TickRate& ticks);

}  // namespace fcswitch::lab

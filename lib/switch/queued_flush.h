#pragma once
// Shutdown of a switch, or of a lab host, whose tasks have stopped: every packet still queued
// is freed and counted.

#include <cstdint>
#include <vector>

#include "switch/drop_counters.h"
#include "switch/fwd_task.h"
#include "switch/switch_state.h"
#include "switch/tx_task.h"

namespace fcswitch {

// Control thread, tasks stopped: frees what waits in the RX→FWD rings, the input FIFOs of
// `fwd` (null: none), the egress rings and the hands of `tx` (indexed by port), counted as
// shutdown_flush drops of their port in `drops` (an input FIFO's of its ingress port).
// Returns how many.
uint64_t flush_queued(SwitchState& state, FwdTask* fwd, const std::vector<TxTask*>& tx,
                      DropCounters& drops);

}  // namespace fcswitch

#pragma once
// The counters of one (port, priority) with a flow-control engine, as every report lists
// them: TX's own (the feedback frames sent for it, the time its queue waited at a closed
// gate) and its watchdog's, declared here once; then the engine's halves' own, which TX
// passes on (TxTask::engine_counters). The JSON and text reports, DPDK telemetry and /metrics
// take the names from these tables (fc/counter_descriptor.h).

#include <array>

#include "fc/counter_descriptor.h"
#include "fc/gate_watchdog.h"

namespace fcswitch {

class TxTask;

inline constexpr std::array kTxFlowControlCounters = {
    fc::counter("pause_frames_sent", "fcswitch_pause_frames_sent_total",
                "Frames sent upstream holding this priority back (PFC XOFF, GFC stage)"),
    fc::counter("resume_frames_sent", "fcswitch_resume_frames_sent_total",
                "PFC XON frames sent upstream"),
    fc::counter("blocked_ns", "fcswitch_blocked_seconds_total",
                "Time this egress queue had packets and a closed gate",
                fc::CounterUnit::kNanoseconds),
    fc::kWatchdogStormsCounter,
    fc::kWatchdogRestoresCounter,
};
static_assert(fc::well_formed_counters(kTxFlowControlCounters));

// TX's and its watchdog's counters of `priority`, in kTxFlowControlCounters order. Any thread.
void tx_flow_control_counters(const TxTask& tx, int priority, const fc::CounterSink& sink);

}  // namespace fcswitch

#pragma once
// ECN's counters of one (egress port, queue) with a marking profile (RFC 3168; [ecn]), as
// every report lists them: FWD's (switch/fwd/ecn_counters.h). The JSON report, the lab summary and
// /metrics take their names from this table (fc/counter_descriptor.h).

#include <array>

#include "fc/counter_descriptor.h"

namespace fcswitch {

class SwitchNode;

inline constexpr std::array kEcnPortCounters = {
    fc::counter("marked", "fcswitch_ecn_marked_total",
                "ECT packets marked CE as they joined this egress queue"),
    fc::counter("not_ect", "fcswitch_ecn_not_ect_total",
                "Packets the marking draw chose that were not ECT: sent on unmarked, not dropped"),
    fc::counter("ce_arrived", "fcswitch_ecn_ce_arrived_total",
                "Packets that joined this egress queue already CE (marked upstream)"),
};
static_assert(fc::well_formed_counters(kEcnPortCounters));

// The counters of (port, queue), a marking queue, in kEcnPortCounters order. Any thread.
void ecn_port_counters(const SwitchNode& node, int port, int queue, const fc::CounterSink& sink);

}  // namespace fcswitch

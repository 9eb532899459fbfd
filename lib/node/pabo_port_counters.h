#pragma once
// PABO's counters of one (port, priority) (PABO §II), as every report lists them: FWD's
// (switch/fwd/pabo_counters.h) and the depths of the two sub-queues. The JSON report, the lab
// summary and /metrics take their names from this table (fc/counter_descriptor.h).

#include <array>

#include "fc/counter_descriptor.h"

namespace fcswitch {

class SwitchNode;

inline constexpr std::array kPaboPortCounters = {
    fc::counter("bounced", "fcswitch_pabo_bounced_total",
                "Packets bounced back out of this port, towards their source"),
    fc::counter("arrived_bounced", "fcswitch_pabo_arrived_bounced_total",
                "Packets received on this port that had been bounced before (n_p > 0)"),
    fc::counter("reforwarded", "fcswitch_pabo_reforwarded_total",
                "Bounced packets (n_p > 0) forwarded on out of this port"),
    fc::counter("normal_full_drops", "fcswitch_pabo_normal_full_drops_total",
                "Packets dropped: this port's normal sub-queue was full (drop-tail, no bounce)"),
    fc::counter("bounce_full_drops", "fcswitch_pabo_bounce_full_drops_total",
                "Packets dropped: this port's bounce sub-queue had no room for a bounce"),
    fc::gauge("normal_queue_packets", "fcswitch_pabo_normal_queue_packets",
              "Packets waiting in this port's normal sub-queue"),
    fc::gauge("bounce_queue_packets", "fcswitch_pabo_bounce_queue_packets",
              "Packets waiting in this port's bounce sub-queue"),
};
static_assert(fc::well_formed_counters(kPaboPortCounters));

// The counters of (port, priority), a PABO priority, in kPaboPortCounters order. Any thread.
void pabo_port_counters(const SwitchNode& node, int port, int priority,
                        const fc::CounterSink& sink);

}  // namespace fcswitch

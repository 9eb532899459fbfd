#pragma once
// [pyrrha]: Pyrrha's congestion-root flow control (Pyrrha §4) on one priority of a switch.

#include <cstdint>
#include <optional>
#include <string_view>

#include "config/table_reader.h"
#include "params/switch_params.h"

namespace fcswitch::config {

// Reads [pyrrha] into config.pyrrha (left empty when there is no section). Needs the ports and
// their flow control (the one-hop BDP and the engines Pyrrha replaces), the lossless
// priorities, [tagger], [switch] queueing and [pabo] read before: Pyrrha runs alone on its
// priority.
void read_pyrrha(TableReader& root, SwitchConfig& config);

// The largest one-hop BDP over the switch's ports, in bytes rounded up: rate × τ / 8 with τ
// the port's flow-control response time (2 × link delay + the switch's reaction, GFC Eq. 6;
// the authors' ns-3 code takes rate × 2 × delay, NOTES.md "Pyrrha"). 0 with no ports.
uint64_t largest_one_hop_bdp_bytes(const SwitchConfig& config);

// `bdps` one-hop BDPs in bytes, rounded up and at least 1. A product within a trillionth of a
// whole number is that number: 1.1 × 1000 is 1100, not the 1101 its binary rounding gives.
uint64_t bdps_to_bytes(double bdps, uint64_t one_hop_bdp_bytes);

// "SWITCH_ID:PORT" (how Pyrrha names a root, §4.1): a hop of [[pyrrha.paths]] or of an fchost
// flow's pyrrha_path; nothing when the text is not that (an id past 32 bits, a port past 16).
std::optional<PyrrhaHop> parse_pyrrha_hop(std::string_view text);
inline constexpr std::string_view kPyrrhaHopForm =
    "\"SWITCH_ID:PORT\" for each hop (a switch_id and its port's index in that switch's "
    "[[ports]])";

}  // namespace fcswitch::config

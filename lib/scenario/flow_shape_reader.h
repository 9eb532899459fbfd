#pragma once
// The keys that say what a flow sends, when and how fast — the same in a lab scenario's
// [[flows]] and in fchost's (host/host_program_config.h): priority or dscp, frame, size, start,
// duration, rate ("line" or a rate), transport, and for an on-off flow on, off and burst. Who
// sends it and to whom is the caller's.

#include <cstdint>
#include <optional>
#include <string_view>

#include "config/table_reader.h"
#include "scenario/flow_transport.h"
#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

inline constexpr uint64_t kMaxFlowDurationNs = 3600ull * 1'000'000'000ull;

// A flow's DSCP from `priority` (DSCP 8·P, the class selector) or `dscp`, nullopt when neither
// is given or the one given is refused. Both given is refused: they could contradict (priority
// 3 beside dscp 10 would send at the lossy priority 1).
std::optional<uint8_t> read_flow_dscp(config::TableReader& r);

// Reads those keys of `r` into `flow`; `pattern` is the flow's ("constant", "on-off", "incast"),
// read by the caller. Refusals go to r's problems.
void read_flow_shape(config::TableReader& r, std::string_view pattern,
                     const TransportSettings& transport, FlowSpec& flow);

}  // namespace fcswitch::lab

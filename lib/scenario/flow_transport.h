#pragma once
// What carries a lab flow's frames (lib/transport): paced frames and nothing back (`raw`); a
// reliable window with cumulative ACKs, retransmission and optionally Reno (`window`); DCQCN's
// rate control on CNPs, optionally under a window (`dcqcn`); TIMELY's rate control on the RTTs
// its ACKs echo, optionally under a window (`timely`). Chosen per flow ([[flows]] or
// [[workloads]] `transport`); how they behave is the scenario's [transport].

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config/table_reader.h"
#include "transport/dcqcn_params.h"
#include "transport/timely_params.h"
#include "transport/window_params.h"

namespace fcswitch::lab {

enum class FlowTransport : uint8_t { kRaw, kWindow, kDcqcn, kTimely };

inline constexpr std::string_view kFlowTransportNames[] = {"raw", "window", "dcqcn", "timely"};

inline std::string_view transport_name(FlowTransport t) {
  return kFlowTransportNames[static_cast<int>(t)];
}
inline std::optional<FlowTransport> transport_named(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (kFlowTransportNames[i] == name) return static_cast<FlowTransport>(i);
  return std::nullopt;
}

// How the hosts' reliable and congestion-controlled flows behave ([transport]); shared by all
// flows of the scenario.
struct TransportSettings {
  transport::WindowParams window;  // `window` flows, and the window of `dcqcn` flows
  transport::DcqcnParams dcqcn;
  uint64_t dcqcn_window_bytes = 0;  // 0: DCQCN flows are not window-limited (no ACKs)
  transport::TimelyParams timely;
  uint64_t timely_window_bytes = 0;  // 0: TIMELY flows are not window-limited
  // The DSCP of the sinks' ACKs and CNPs; -1: the flow's own.
  int ack_dscp = -1;
  int cnp_dscp = -1;

  // The window a flow over `t` keeps (0: none).
  uint64_t window_bytes(FlowTransport t) const {
    return t == FlowTransport::kWindow  ? window.window_bytes
           : t == FlowTransport::kDcqcn ? dcqcn_window_bytes
                                        : 0;
  }
};

// Whether the sink answers each frame of a flow over `t` with an ACK: for a window, and for
// TIMELY's RTT samples.
inline bool acknowledged(const TransportSettings& settings, FlowTransport t) {
  return t == FlowTransport::kTimely || settings.window_bytes(t) != 0;
}

// Reads `root`'s [transport] (absent: the defaults): [transport] ack_dscp, cnp_dscp;
// [transport.window], [transport.dcqcn], [transport.timely] (docs/lab-workloads.md). Every problem
// goes to root's problems, at its place.
TransportSettings read_transport_settings(config::TableReader& root, uint64_t max_duration_ns);

// What a flow of `frame_bytes` frames over `t` needs of the settings and does not have (the
// "expected" of a refusal), or nullopt: a window holds at least one frame; TIMELY's frames carry
// their send time (lab/flow_frame.h: at least 66 bytes).
std::optional<std::string> transport_problem(const TransportSettings& settings, FlowTransport t,
                                             uint32_t frame_bytes);

}  // namespace fcswitch::lab

#include "scenario/flow_shape_reader.h"

#include <fmt/format.h>

#include "core/units.h"

namespace fcswitch::lab {

std::optional<uint8_t> read_flow_dscp(config::TableReader& r) {
  const auto priority = r.integer("priority", 0, 7);
  const auto dscp = r.integer("dscp", 0, 63);
  if (r.has("priority") && r.has("dscp")) {
    r.refuse("dscp", "priority or dscp, not both",
             fmt::format("dscp beside priority on line {}",
                         r.raw().get("priority")->source().begin.line));
    return std::nullopt;
  }
  if (priority) return static_cast<uint8_t>(*priority << 3);
  if (dscp) return static_cast<uint8_t>(*dscp);
  return std::nullopt;
}

void read_flow_shape(config::TableReader& r, std::string_view pattern,
                     const TransportSettings& transport, FlowSpec& flow) {
  const toml::table& table = r.raw();
  if (auto d = read_flow_dscp(r)) flow.dscp = *d;
  if (auto f = r.bytes("frame", 60, 9600)) flow.frame_bytes = static_cast<uint32_t>(*f);
  if (auto s = r.bytes("size", 1, UINT64_MAX / 2)) flow.size_bytes = *s;
  if (auto s = r.duration_ns("start", 0, kMaxFlowDurationNs)) flow.start_ns = *s;
  if (auto d = r.duration_ns("duration", 1, kMaxFlowDurationNs)) flow.stop_ns = flow.start_ns + *d;
  if (const toml::node* rate = table.get("rate");
      rate && rate->is_string() && rate->as_string()->get() == "line") {
    r.node("rate");
  } else if (auto bps = r.rate_bps("rate", 1000, 400'000'000'000)) {
    flow.rate_bps = *bps;
  }
  if (auto t = r.choice("transport", kFlowTransportNames)) {
    flow.transport = *transport_named(*t);
    if (auto problem = transport_problem(transport, flow.transport, flow.frame_bytes))
      r.refuse("transport", *problem);
    if ((flow.transport == FlowTransport::kDcqcn || flow.transport == FlowTransport::kTimely) &&
        flow.rate_bps)
      r.refuse("rate", fmt::format("no rate on a {} flow (it sets the rate, from the line rate)",
                                   transport_name(flow.transport)));
  }
  if (pattern == "on-off") {
    auto on = r.duration_ns("on", 1, kMaxFlowDurationNs);
    auto off = r.duration_ns("off", 1, kMaxFlowDurationNs);
    if (!on || !off) r.refuse("pattern", "on and off durations for an on-off flow");
    flow.on_ns = on.value_or(0);
    flow.off_ns = off.value_or(0);
    if (auto n = r.integer("burst", 1, INT64_MAX)) flow.burst_packets = static_cast<uint64_t>(*n);
  }
}

}  // namespace fcswitch::lab

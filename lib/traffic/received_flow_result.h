#pragma once
// A flow's result (lab_result.h) from what its sink received (traffic/host_sink.h): shared by
// the lab's summary and fchost's.

#include "core/tick_rate.h"
#include "results/lab_result.h"
#include "traffic/host_sink.h"
#include "traffic/host_source.h"

namespace fcswitch::lab {

// What `rx` says of the flow into `result`: packets, bytes, loss, reordering (Reorder Density)
// and per-packet delay.
void add_received(FlowResult& result, const FlowReceived& rx, const TickRate& ticks);

// A flow's transport counts: its source's (`sent`; null where the source is another process,
// as for fchost's [[receive]]) and its sink's (`rx`; zeros where the sink is another process).
TransportResult transport_result(FlowTransport transport, const FlowSent* sent,
                                 const FlowReceived& rx);
// PABO (the flow's hosts run it): what `rx` says of the bounces its frames took.
void add_bounces(FlowResult& result, const FlowReceived& rx);
// PABO: what a host's sink did with bounced frames of its own flows (PortResult::pabo).
NamedCounts host_bounce_counts(const HostSink& sink);

// A sized reliable flow is complete when its source has every ACK: that time from its start.
std::optional<double> completed_s(const FlowSpec& spec, const FlowSent& sent,
                                  const TickRate& ticks);

}  // namespace fcswitch::lab

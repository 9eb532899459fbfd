#include "traffic/received_flow_result.h"

namespace fcswitch::lab {

void add_received(FlowResult& f, const FlowReceived& rx, const TickRate& ticks) {
  f.received_packets = rx.packets.read();
  f.received_bytes = rx.bytes.read();
  f.missing = rx.missing.read();
  f.reordered = rx.reordered.read();
  if (const uint64_t samples = rx.delay_samples.read()) {
    f.delay_mean_s = static_cast<double>(ticks.to_ns(rx.delay_ticks_sum.read() / samples)) / 1e9;
    f.delay_max_s = static_cast<double>(ticks.to_ns(rx.delay_ticks_max.read())) / 1e9;
  }
  f.displaced = rx.displaced.read();
  f.max_displacement = rx.max_displacement.read();
  for (const OwnedCounter& c : rx.displacement) f.displacement.push_back(c.read());
}

TransportResult transport_result(FlowTransport transport, const FlowSent* sent,
                                 const FlowReceived& rx) {
  TransportResult t{.name = std::string(transport_name(transport)),
                    .duplicates = rx.duplicates.read(),
                    .ce_marked = rx.ce_marked.read(),
                    .acks_sent = rx.acks_sent.read(),
                    .cnps_sent = rx.cnps_sent.read()};
  if (sent) {
    t.retransmissions = sent->retransmissions.read();
    t.timeouts = sent->timeouts.read();
    t.fast_retransmits = sent->fast_retransmits.read();
    t.acks_received = sent->acks.read();
    t.cnps_received = sent->cnps.read();
    t.final_rate_bps = sent->rate_bps.read();
    t.lowest_rate_bps = sent->lowest_rate_bps.read();
    t.final_window_bytes = sent->window_bytes.read();
  }
  return t;
}

void add_bounces(FlowResult& f, const FlowReceived& rx) {
  f.bounced_packets = rx.bounces.bounced.read();
  for (const OwnedCounter& c : rx.bounces.max_distance) f.max_bounced_distance.push_back(c.read());
  for (const OwnedCounter& c : rx.bounces.bounce_count) f.bounce_counts.push_back(c.read());
}

NamedCounts host_bounce_counts(const HostSink& sink) {
  return {{"resent_bounced", sink.resent_bounced()},
          {"bounce_full_drops", sink.bounce_queue_full()}};
}

std::optional<double> completed_s(const FlowSpec& spec, const FlowSent& sent,
                                  const TickRate& ticks) {
  if (!spec.size_bytes || !sent.done_ticks.read()) return std::nullopt;
  return static_cast<double>(ticks.to_ns(sent.done_ticks.read())) / 1e9 -
         static_cast<double>(spec.start_ns) / 1e9;
}

}  // namespace fcswitch::lab

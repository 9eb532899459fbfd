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

}  // namespace fcswitch::lab

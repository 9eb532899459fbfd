#include "node/response_time_budget.h"

#include <fmt/format.h>

#include <algorithm>

#include "node/switch_node.h"

namespace fcswitch {

ResponseTimeBudget::ResponseTimeBudget(int ports) : ports_(static_cast<size_t>(ports)) {}

uint64_t ResponseTimeBudget::interval_p99_ns(
    const fc::ResponseTimeMeter& meter, std::array<uint64_t, fc::ResponseTimeMeter::kBuckets>& seen,
    uint64_t& samples) {
  std::array<uint64_t, fc::ResponseTimeMeter::kBuckets> fresh{};
  samples = 0;
  // Bucket bounds above 128 µs are powers of two: the interval's own largest sample caps it.
  const uint64_t interval_max_ns = meter.take_recent_max_ns();
  for (int i = 0; i < fc::ResponseTimeMeter::kBuckets; ++i) {
    const uint64_t count = meter.bucket(i);
    fresh[i] = count - seen[i];
    seen[i] = count;
    samples += fresh[i];
  }
  if (samples == 0) return 0;
  // The bucket that holds the 99th percentile, by its upper bound (as the meter's own quantile).
  const uint64_t rank = (samples * 99 + 99) / 100;
  uint64_t below = 0;
  for (int i = 0; i < fc::ResponseTimeMeter::kBuckets; ++i) {
    below += fresh[i];
    if (below >= rank) return std::min(meter.bucket_upper_ns(i), interval_max_ns);
  }
  return interval_max_ns;
}

std::vector<std::string> ResponseTimeBudget::check(SwitchNode& node) {
  std::vector<std::string> lines;
  const std::vector<uint64_t> gaps_ns = node.take_recent_poll_gaps_ns();
  for (int p = 0; p < node.ports(); ++p) {
    const config::PortConfig& port = node.config().ports[p];
    Port& state = ports_[static_cast<size_t>(p)];
    const uint64_t budget_ns = port.flow_control.response_time_ns;
    uint64_t p99_ns = 0, samples = 0;
    bool has_engine = false;
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      has_engine |= port.flow_control.priorities[prio].engine != nullptr;
      const fc::ResponseTimeMeter* meter = node.tx(p).response_time(prio);
      if (!meter) continue;
      if (!state.seen) state.seen = std::make_unique<decltype(state.seen)::element_type>();
      uint64_t n = 0;
      p99_ns = std::max(p99_ns, interval_p99_ns(*meter, (*state.seen)[prio], n));
      samples += n;
    }
    if (!has_engine) continue;
    const uint64_t tau_ns = std::max(p99_ns, gaps_ns[static_cast<size_t>(p)]);
    state.last_ns.set(tau_ns);
    if (tau_ns <= budget_ns) continue;
    state.seconds_over.increment();
    std::string breaks;
    const fc::LinkParams link = port.link_params(node.config().buffer.lossless_ingress_bytes);
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      const config::PriorityFlowControl& chosen = port.flow_control.priorities[prio];
      if (!chosen.engine) continue;
      const std::string broken = chosen.params->tau_breaks(link, tau_ns);
      if (!broken.empty())
        breaks += fmt::format("; {} priority {}: {}", chosen.engine->name, prio, broken);
    }
    if (breaks.empty()) breaks = "; its thresholds still cover it";
    if (tau_ns > state.worst_ns.read()) {
      state.worst_ns.set(tau_ns);
      state.worst_breaks = breaks.substr(2);
    }
    lines.push_back(fmt::format(
        "port {}: τ {} µs in the last second, over response_time = {} µs (pause response p99 {} "
        "µs over {} samples; RX, FWD and TX polled at most {} µs apart){}",
        port.name, tau_ns / 1000, budget_ns / 1000, p99_ns / 1000, samples,
        gaps_ns[static_cast<size_t>(p)] / 1000, breaks));
  }
  return lines;
}

}  // namespace fcswitch

#include "workload/incast_schedule.h"

#include <cmath>
#include <random>
#include <stdexcept>

#include "core/units.h"
#include "workload/uniform_random.h"

namespace fcswitch::workload {
namespace {

void check(const IncastParams& p, const std::vector<int>& destinations) {
  if (p.senders < 1 || p.min_mtus < 1 || p.max_mtus < p.min_mtus || p.mtu_payload_bytes < 1 ||
      !(p.load > 0) || !(p.link_rate_bps > 0) || p.jitter_ns < 0 || p.incasts < 0 ||
      destinations.empty()) {
    throw std::invalid_argument(
        "incast_schedule: needs senders >= 1, 1 <= min_mtus <= max_mtus, payload >= 1, load > 0, "
        "link rate > 0, jitter >= 0, incasts >= 0 and at least one destination");
  }
}

}  // namespace

double incast_mean_flow_bytes(const IncastParams& params) {
  return (static_cast<double>(params.min_mtus) + params.max_mtus) / 2 * params.mtu_payload_bytes;
}

int64_t incast_period_ns(const IncastParams& params) {
  return std::llround(params.senders * incast_mean_flow_bytes(params) *
                      static_cast<double>(kBitsPerByte) * 1e9 /
                      (params.load * params.link_rate_bps));
}

std::vector<Incast> incast_schedule(const IncastParams& params,
                                    const std::vector<int>& destinations,
                                    const OtherRackHostPicker& senders, uint64_t seed) {
  check(params, destinations);
  std::mt19937_64 rng(seed);
  const int64_t period_ns = incast_period_ns(params);
  const uint64_t size_choices = params.max_mtus - params.min_mtus + 1;
  std::vector<Incast> incasts;
  incasts.reserve(params.incasts);
  for (int i = 0; i < params.incasts; ++i) {
    Incast incast;
    incast.start_ns = params.start_ns + i * period_ns;
    incast.destination_host = destinations[i % destinations.size()];
    incast.flows.reserve(params.senders);
    for (int s = 0; s < params.senders; ++s) {
      FlowRequest flow;
      flow.destination_host = incast.destination_host;
      flow.source_host = senders.pick(incast.destination_host, rng);
      flow.size_bytes = (params.min_mtus + uniform_index(rng, size_choices)) *
                        static_cast<uint64_t>(params.mtu_payload_bytes);
      flow.start_ns =
          incast.start_ns +
          (params.jitter_ns > 0
               ? static_cast<int64_t>(uniform_index(rng, static_cast<uint64_t>(params.jitter_ns)))
               : 0);
      incast.flows.push_back(flow);
    }
    incasts.push_back(std::move(incast));
  }
  return incasts;
}

}  // namespace fcswitch::workload

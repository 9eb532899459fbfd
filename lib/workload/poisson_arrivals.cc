#include "workload/poisson_arrivals.h"

#include <cmath>
#include <stdexcept>

#include "core/units.h"
#include "workload/uniform_random.h"

namespace fcswitch::workload {

double poisson_rate_per_s(double load, double link_rate_bps, double mean_flow_bytes) {
  if (!(load > 0) || !(link_rate_bps > 0) || !(mean_flow_bytes > 0)) {
    throw std::invalid_argument("poisson_rate_per_s: load, link rate and mean size must be > 0");
  }
  return load * link_rate_bps / (static_cast<double>(kBitsPerByte) * mean_flow_bytes);
}

PoissonArrivals::PoissonArrivals(double rate_per_s, uint64_t seed, int64_t start_ns)
    : rng_(seed), mean_interarrival_ns_(1e9 / rate_per_s), now_ns_(static_cast<double>(start_ns)) {
  if (!(rate_per_s > 0)) throw std::invalid_argument("PoissonArrivals: rate must be > 0");
}

int64_t PoissonArrivals::next_ns() {
  // Inverse transform of Exp(1/mean): −mean·ln(1 − u), u in [0, 1) so the log is finite.
  now_ns_ += -mean_interarrival_ns_ * std::log1p(-uniform01(rng_));
  return std::llround(now_ns_);
}

}  // namespace fcswitch::workload

#pragma once
// Open-loop Poisson flow arrivals at one host, the background traffic of Pyrrha §6 (and of
// pFabric, HPCC, Homa): exponential inter-arrival times whose rate fills the host's link to a
// target load on average.

#include <cstdint>
#include <random>

namespace fcswitch::workload {

// Flows per second that load a link of `link_rate_bps` to `load` (0 < load) with flows of mean
// `mean_flow_bytes`: λ = load × link_rate_bps / (8 × mean_flow_bytes).
double poisson_rate_per_s(double load, double link_rate_bps, double mean_flow_bytes);

class PoissonArrivals {
 public:
  // Arrivals at rate `rate_per_s` (> 0) after `start_ns`, from an RNG seeded with `seed`.
  PoissonArrivals(double rate_per_s, uint64_t seed, int64_t start_ns = 0);

  // The next arrival, in ns, rounded to the nearest ns. Exact times are accumulated in double
  // and rounded only on output, so rounding never biases the rate.
  int64_t next_ns();

  double mean_interarrival_ns() const { return mean_interarrival_ns_; }

 private:
  std::mt19937_64 rng_;
  double mean_interarrival_ns_;
  double now_ns_;
};

}  // namespace fcswitch::workload

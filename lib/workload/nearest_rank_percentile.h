#pragma once
// Percentiles by the nearest-rank method (no interpolation): the P-th percentile of N values is
// the value of rank ceil(P/100 × N) in ascending order — always one of the values. p99 of 100
// values is the 99th smallest; of 10 values, the largest.

#include <vector>

namespace fcswitch::workload {

// `percent` in (0, 100]; `values` non-empty (copied and partially sorted). Throws
// std::invalid_argument otherwise.
double nearest_rank_percentile(std::vector<double> values, double percent);

}  // namespace fcswitch::workload

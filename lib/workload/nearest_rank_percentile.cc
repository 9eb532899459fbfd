#include "workload/nearest_rank_percentile.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fcswitch::workload {

double nearest_rank_percentile(std::vector<double> values, double percent) {
  if (values.empty() || !(percent > 0) || percent > 100) {
    throw std::invalid_argument("nearest_rank_percentile: needs values and 0 < percent <= 100");
  }
  // percent/100 × N computed as percent × N / 100 so that e.g. 99 × 100 / 100 is exactly 99.
  const double rank = std::ceil(percent * static_cast<double>(values.size()) / 100);
  const size_t index = std::clamp<size_t>(static_cast<size_t>(rank), 1, values.size()) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index),
                   values.end());
  return values[index];
}

}  // namespace fcswitch::workload

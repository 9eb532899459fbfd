#pragma once
// Families built up one sample at a time, in first-seen order, each name once (the text
// format allows one HELP/TYPE block per family: samples of many switches share it).

#include <prometheus/metric_family.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "metrics/engine_metric_catalog.h"

namespace fcswitch::metrics {

using Labels = std::vector<prometheus::ClientMetric::Label>;

class MetricFamilySet {
 public:
  void add(std::string_view name, MetricType type, std::string_view help, Labels labels,
           double value);
  // A histogram: `buckets` (upper bound, cumulative count) in increasing order, without +Inf.
  void add_histogram(std::string_view name, std::string_view help, Labels labels,
                     const std::vector<std::pair<double, uint64_t>>& buckets, uint64_t count,
                     double sum);
  std::vector<prometheus::MetricFamily> take() { return std::move(families_); }

 private:
  std::vector<prometheus::MetricFamily> families_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace fcswitch::metrics

#include "metrics/metric_family_set.h"

#include <limits>
#include <stdexcept>

namespace fcswitch::metrics {

void MetricFamilySet::add(std::string_view name, MetricType type, std::string_view help,
                          Labels labels, double value) {
  const prometheus::MetricType wanted = type == MetricType::kCounter
                                            ? prometheus::MetricType::Counter
                                            : prometheus::MetricType::Gauge;
  auto [it, inserted] = index_.try_emplace(std::string(name), families_.size());
  if (inserted) {
    prometheus::MetricFamily family;
    family.name = std::string(name);
    family.help = std::string(help);
    family.type = wanted;
    families_.push_back(std::move(family));
  }
  prometheus::MetricFamily& family = families_[it->second];
  if (family.type != wanted) throw std::logic_error("metric " + family.name + ": two types");
  prometheus::ClientMetric sample;
  sample.label = std::move(labels);
  if (type == MetricType::kCounter)
    sample.counter.value = value;
  else
    sample.gauge.value = value;
  family.metric.push_back(std::move(sample));
}

void MetricFamilySet::add_histogram(std::string_view name, std::string_view help, Labels labels,
                                    const std::vector<std::pair<double, uint64_t>>& buckets,
                                    uint64_t count, double sum) {
  auto [it, inserted] = index_.try_emplace(std::string(name), families_.size());
  if (inserted) {
    prometheus::MetricFamily family;
    family.name = std::string(name);
    family.help = std::string(help);
    family.type = prometheus::MetricType::Histogram;
    families_.push_back(std::move(family));
  }
  prometheus::MetricFamily& family = families_[it->second];
  if (family.type != prometheus::MetricType::Histogram)
    throw std::logic_error("metric " + family.name + ": two types");
  prometheus::ClientMetric sample;
  sample.label = std::move(labels);
  sample.histogram.sample_count = count;
  sample.histogram.sample_sum = sum;
  for (const auto& [upper, cumulative] : buckets)
    sample.histogram.bucket.push_back({cumulative, upper});
  sample.histogram.bucket.push_back({count, std::numeric_limits<double>::infinity()});
  family.metric.push_back(std::move(sample));
}

}  // namespace fcswitch::metrics

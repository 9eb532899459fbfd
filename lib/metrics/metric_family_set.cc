#include "metrics/metric_family_set.h"

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

}  // namespace fcswitch::metrics

#pragma once
// The Prometheus name, type and unit of every counter a flow-control engine reports through
// fc::CounterSink (engines name their counters in snake_case, in their own units: ns, bps,
// 64-byte blocks). One table, so the exposition and the dashboards agree on names, and a
// unit test checks that every name an engine reports is here.

#include <optional>
#include <string_view>

namespace fcswitch::metrics {

enum class MetricType { kCounter, kGauge };

struct EngineMetric {
  std::string_view counter;  // the engine's name for it
  std::string_view family;   // fcswitch_…, in base units (`_total` on counters)
  MetricType type;
  double scale;  // engine value × scale = the exposed value
  std::string_view help;
};

std::optional<EngineMetric> engine_metric(std::string_view counter);

}  // namespace fcswitch::metrics

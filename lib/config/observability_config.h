#pragma once
// [metrics] and [trace]: what a switch exports while it runs (lib/metrics).

#include <optional>

#include "params/observability_params.h"

namespace fcswitch::config {

class TableReader;

// The Prometheus port fcswitch listens on when [metrics] names none (unassigned in
// Prometheus' list of default exporter ports; fclab uses the same).
std::optional<MetricsConfig> read_metrics(TableReader& root);
std::optional<TraceConfig> read_trace(TableReader& root);

}  // namespace fcswitch::config

#include "metrics/flow_control_metrics.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "metrics/engine_metric_catalog.h"
#include "node/flow_control_counters.h"

namespace fcswitch::metrics {

fc::CounterSink family_sink(MetricFamilySet& out, const Labels& labels) {
  return [&out, &labels](const fc::CounterDescriptor& counter, uint64_t value) {
    const EngineMetric metric = engine_metric(counter);
    out.add(metric.family, metric.type, metric.help, labels,
            static_cast<double>(value) * metric.scale);
  };
}

void collect_flow_control(MetricFamilySet& out, const Labels& at, const TxTask& tx, int priority,
                          std::string_view engine) {
  Labels fc = at;
  fc.push_back({"engine", std::string(engine)});
  // TX's, the watchdog's and the engine's counters, each under the family its table names.
  const fc::CounterSink add_counter = family_sink(out, fc);
  tx_flow_control_counters(tx, priority, add_counter);
  if (const fc::ResponseTimeMeter* tau = tx.response_time(priority)) {
    // Prometheus buckets at 5, 10, 20, 50 … µs, from the meter's finer ones.
    std::vector<std::pair<double, uint64_t>> buckets;
    uint64_t cumulative = 0;
    int next = 0;
    constexpr std::array<uint64_t, 12> kBoundsUs = {5,   10,   20,   50,   100,   200,
                                                    500, 1000, 2000, 5000, 10000, 20000};
    for (int i = 0; i < fc::ResponseTimeMeter::kBuckets - 1 && next < 12; ++i) {
      cumulative += tau->bucket(i);
      if (tau->bucket_upper_ns(i) == kBoundsUs[next] * 1000)
        buckets.emplace_back(static_cast<double>(kBoundsUs[next++]) * 1e-6, cumulative);
    }
    out.add_histogram("fcswitch_pause_response_seconds",
                      "τ at this input: XOFF decided to the last frame before it went quiet", fc,
                      buckets, tau->samples(), static_cast<double>(tau->sum_ns()) * 1e-9);
  }
  tx.engine_counters(priority, add_counter);
}

void collect_control_decode_errors(MetricFamilySet& out, const Labels& at, const RxTask& rx) {
  for (int s = 1; s < static_cast<int>(wire::ControlDecodeStatus::kCount); ++s) {  // not kOk
    Labels labels = at;
    labels.push_back({"why", std::string(wire::kControlDecodeStatusNames[s])});
    out.add("fcswitch_control_decode_errors_total", MetricType::kCounter,
            "Flow-control frames refused as invalid (drop reason control_invalid), by why",
            std::move(labels),
            static_cast<double>(rx.decode_errors(static_cast<wire::ControlDecodeStatus>(s))));
  }
}

}  // namespace fcswitch::metrics

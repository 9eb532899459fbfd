// Every counter a flow-control engine reports has a Prometheus name in the catalog, so a new
// engine counter cannot reach the exposition nameless; families of many switches share one
// HELP/TYPE block; the text format is what promtool and the dashboards expect.

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <set>
#include <string>

#include "config/switch_config.h"
#include "fc/engine_registry.h"
#include "metrics/engine_metric_catalog.h"
#include "metrics/metric_family_set.h"

namespace fcswitch::metrics {
namespace {

config::SwitchConfig with_engine(std::string_view engine) {
  return config::parse_switch_config(std::string(R"(
[switch]
lossless_priorities = [3]
[flow_control]
response_time = "20us"
engine = ")") + std::string(engine) + R"("
[[ports]]
name = "p0"
device = "net_null0"
)",
                                     "catalog.toml");
}

TEST(EngineMetricCatalog, NamesEveryCounterOfEveryEngine) {
  const auto names = fc::EngineRegistry::instance().names();
  ASSERT_GE(names.size(), 5u);  // none, pfc, cbfc, gfc-buffer, gfc-time
  for (std::string_view engine : names) {
    if (engine == "none") continue;  // no engine: nothing to report
    const config::SwitchConfig config = with_engine(engine);
    const auto& chosen = config.ports[0].flow_control.priorities[3];
    ASSERT_NE(chosen.engine, nullptr) << engine;
    fc::EngineContext context;
    context.priority = 3;
    context.link.buffer_bytes = 1'000'000;
    context.link.response_time_ns = 20'000;
    const fc::EngineInstance instance = chosen.engine->make(*chosen.params, context);
    std::set<std::string> seen;
    auto expect_named = [&](std::string_view counter, uint64_t) {
      seen.emplace(counter);
      const auto metric = engine_metric(counter);
      ASSERT_TRUE(metric.has_value())
          << engine << " reports '" << counter << "', which engine_metric_catalog.cc does not name";
      EXPECT_EQ(metric->family.substr(0, 9), "fcswitch_");
      EXPECT_EQ(metric->family.ends_with("_total"), metric->type == MetricType::kCounter)
          << metric->family;
    };
    if (instance.generator) instance.generator->counters(expect_named);
    if (instance.gate) instance.gate->counters(expect_named);
    EXPECT_FALSE(seen.empty()) << engine;
  }
}

TEST(EngineMetricCatalog, ConvertsToBaseUnits) {
  EXPECT_EQ(engine_metric("paused_ns")->family, "fcswitch_paused_seconds_total");
  EXPECT_DOUBLE_EQ(engine_metric("paused_ns")->scale * 2'500'000'000, 2.5);
  EXPECT_DOUBLE_EQ(engine_metric("rate_bps")->scale * 8e9, 1e9);     // bytes per second
  EXPECT_DOUBLE_EQ(engine_metric("credit_blocks")->scale * 3, 192);  // 64-byte blocks
  EXPECT_FALSE(engine_metric("no_such_counter").has_value());
}

TEST(MetricFamilySet, SamplesOfManySwitchesShareOneFamily) {
  MetricFamilySet set;
  set.add("fcswitch_rx_packets_total", MetricType::kCounter, "Frames received",
          {{"node", "S1"}, {"port", "p0"}}, 5);
  set.add("fcswitch_ingress_occupancy_bytes", MetricType::kGauge, "Bytes",
          {{"node", "S1"}, {"port", "p0"}, {"prio", "3"}}, 1500);
  set.add("fcswitch_rx_packets_total", MetricType::kCounter, "Frames received",
          {{"node", "S2"}, {"port", "p0"}}, 7);
  const std::string text = prometheus::TextSerializer().Serialize(set.take());
  EXPECT_EQ(text,
            "# HELP fcswitch_rx_packets_total Frames received\n"
            "# TYPE fcswitch_rx_packets_total counter\n"
            "fcswitch_rx_packets_total{node=\"S1\",port=\"p0\"} 5\n"
            "fcswitch_rx_packets_total{node=\"S2\",port=\"p0\"} 7\n"
            "# HELP fcswitch_ingress_occupancy_bytes Bytes\n"
            "# TYPE fcswitch_ingress_occupancy_bytes gauge\n"
            "fcswitch_ingress_occupancy_bytes{node=\"S1\",port=\"p0\",prio=\"3\"} 1500\n");
}

TEST(MetricFamilySet, OneNameWithTwoTypesIsABug) {
  MetricFamilySet set;
  set.add("fcswitch_x", MetricType::kGauge, "x", {}, 1);
  EXPECT_THROW(set.add("fcswitch_x", MetricType::kCounter, "x", {}, 1), std::logic_error);
}

}  // namespace
}  // namespace fcswitch::metrics

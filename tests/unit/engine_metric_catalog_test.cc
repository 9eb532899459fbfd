// Each engine reports exactly the counters it registered, under the descriptors of its
// tables; the catalogue built from those tables (through the registry) and Pyrrha's holds
// each name once and refuses tables that disagree; families of many switches share one HELP/TYPE
// block; the text format is what promtool and the dashboards expect.

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <array>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "fc/engine_registry.h"
#include "metrics/engine_metric_catalog.h"
#include "metrics/metric_family_set.h"
#include "node/pyrrha_switch_counters.h"

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

std::vector<std::string_view> names_of(std::span<const fc::CounterDescriptor> table) {
  std::vector<std::string_view> names;
  for (const fc::CounterDescriptor& counter : table) names.push_back(counter.name);
  return names;
}

// What a half's counters() reports is what its engine registered, in order, and the
// catalogue has each (the registration passes the tables by hand: gfc-time's gate reports
// CBFC's credit counters before its own).
TEST(EngineMetricCatalog, EveryEngineReportsWhatItRegistered) {
  const auto names = fc::EngineRegistry::instance().names();
  ASSERT_GE(names.size(), 5u);  // none, pfc, cbfc, gfc-buffer, gfc-time
  for (std::string_view engine : names) {
    const config::SwitchConfig config = with_engine(engine);
    const auto& chosen = config.ports[0].flow_control.priorities[3];
    const fc::EngineDescriptor& registered = *fc::EngineRegistry::instance().find(engine);
    if (engine == "none") {  // no engine: nothing to report
      EXPECT_TRUE(registered.generator_counters.empty());
      EXPECT_TRUE(registered.gate_counters.empty());
      continue;
    }
    ASSERT_NE(chosen.engine, nullptr) << engine;
    fc::EngineContext context;
    context.priority = 3;
    context.link.buffer_bytes = 1'000'000;
    context.link.response_time_ns = 20'000;
    const fc::EngineInstance instance = chosen.engine->make(*chosen.params, context);
    ASSERT_TRUE(instance.generator && instance.gate) << engine;
    std::vector<std::string_view> generator, gate;
    auto into = [](std::vector<std::string_view>& out) {
      return [&out](const fc::CounterDescriptor& counter, uint64_t) {
        out.push_back(counter.name);
        const auto metric = engine_metric(counter.name);
        ASSERT_TRUE(metric.has_value()) << counter.name;
        EXPECT_EQ(metric->family, counter.family);
      };
    };
    instance.generator->counters(into(generator));
    instance.gate->counters(into(gate));
    EXPECT_FALSE(generator.empty()) << engine;
    EXPECT_FALSE(gate.empty()) << engine;
    EXPECT_EQ(generator, names_of(registered.generator_counters)) << engine;
    EXPECT_EQ(gate, names_of(registered.gate_counters)) << engine;
  }
}

// TX's own and the watchdog's counters are in the catalogue with the engines'; a name two
// engines share (the rate limiter's) is there once. A family is there under one name, or
// under several as the series of a labelled family (Pyrrha's), declared alike.
TEST(EngineMetricCatalog, HoldsTxWatchdogAndEngineCountersOnce) {
  const std::vector<EngineMetric>& catalog = engine_metric_catalog();
  std::set<std::string_view> names;
  std::map<std::string_view, EngineMetric> families;
  for (const EngineMetric& m : catalog) {
    EXPECT_TRUE(names.insert(m.counter).second) << m.counter;
    const auto [it, first] = families.emplace(m.family, m);
    if (first) continue;
    EXPECT_TRUE(m.family.starts_with("fcswitch_pyrrha_")) << m.family << " under two names";
    EXPECT_EQ(it->second.type, m.type) << m.family;
    EXPECT_EQ(it->second.help, m.help) << m.family;
  }
  EXPECT_EQ(engine_metric("blocked_ns")->family, "fcswitch_blocked_seconds_total");
  EXPECT_EQ(engine_metric("watchdog_storms")->family, "fcswitch_watchdog_storms_total");
  EXPECT_EQ(engine_metric("xoff_transitions")->family, "fcswitch_pfc_xoff_transitions_total");
  EXPECT_EQ(engine_metric("rate_bps")->type, MetricType::kGauge);
  EXPECT_EQ(engine_metric("credit_updates_sent")->type, MetricType::kCounter);
}

// Every row of Pyrrha's table (node/pyrrha_switch_counters.h) is in the catalogue, under its
// family: the messages of each kind in one family per direction, the IQs of each state in one.
TEST(EngineMetricCatalog, HoldsEveryPyrrhaRow) {
  for (const PyrrhaSwitchCounter& row : kPyrrhaSwitchCounters) {
    const auto metric = engine_metric(row.counter.name);
    ASSERT_TRUE(metric.has_value()) << row.counter.name;
    EXPECT_EQ(metric->family, row.counter.family);
  }
  EXPECT_EQ(engine_metric("pause_sent")->family, "fcswitch_pyrrha_messages_sent_total");
  EXPECT_EQ(engine_metric("dealloc_sent")->family, "fcswitch_pyrrha_messages_sent_total");
  EXPECT_EQ(engine_metric("merge_received")->family, "fcswitch_pyrrha_messages_received_total");
  EXPECT_EQ(engine_metric("pause_received")->type, MetricType::kCounter);
  EXPECT_EQ(engine_metric("iqs_paused")->family, "fcswitch_pyrrha_iqs");
  EXPECT_EQ(engine_metric("iqs_resumed")->family, "fcswitch_pyrrha_iqs");
  EXPECT_EQ(engine_metric("roots_active")->family, "fcswitch_pyrrha_roots_active");
  EXPECT_EQ(engine_metric("roots_active")->type, MetricType::kGauge);
  EXPECT_EQ(engine_metric("iq_exhaustion")->family, "fcswitch_pyrrha_iq_exhaustion_total");
  // The labels: kinds in pyrrha::kMessageKindNames' order, the three IQ states.
  std::vector<std::string_view> kinds, states;
  for (const PyrrhaSwitchCounter& row : kPyrrhaSwitchCounters) {
    if (row.counter.family == "fcswitch_pyrrha_messages_sent_total")
      kinds.push_back(row.label_value);
    if (row.counter.family == "fcswitch_pyrrha_iqs") states.push_back(row.label_value);
  }
  EXPECT_EQ(kinds, (std::vector<std::string_view>(pyrrha::kMessageKindNames.begin(),
                                                  pyrrha::kMessageKindNames.end())));
  EXPECT_EQ(states, (std::vector<std::string_view>{"paused", "soft_merging", "resumed"}));
}

// The rules Pyrrha's table is checked against when it is compiled.
TEST(PyrrhaSwitchCounters, TableRules) {
  using pyrrha_rows::well_formed;
  const auto sent = [](std::string_view name, std::string_view group, std::string_view kind) {
    return PyrrhaSwitchCounter{fc::counter(name, "fcswitch_t_sent_total", "Sent"), group, "kind",
                               kind};
  };
  const PyrrhaSwitchCounter plain = pyrrha_rows::row(fc::gauge("roots", "fcswitch_t_roots", "R"));
  EXPECT_TRUE(well_formed(kPyrrhaSwitchCounters));
  EXPECT_TRUE(well_formed(std::array{sent("pause_sent", "sent", "pause"),
                                     sent("resume_sent", "sent", "resume"), plain}));
  // Two series with one label value; a series with no group; a family in two groups.
  EXPECT_FALSE(well_formed(
      std::array{sent("pause_sent", "sent", "pause"), sent("pause_again", "sent", "pause")}));
  EXPECT_FALSE(well_formed(std::array{sent("pause_sent", "", "pause")}));
  EXPECT_FALSE(well_formed(
      std::array{sent("pause_sent", "sent", "pause"), sent("resume_sent", "other", "resume")}));
  // A group named like a row (one JSON key, two meanings); a kind the name does not say.
  EXPECT_FALSE(well_formed(std::array{sent("pause_sent", "roots", "pause"), plain}));
  EXPECT_FALSE(well_formed(std::array{sent("pause_sent", "sent", "resume")}));
  // Two families in one group.
  PyrrhaSwitchCounter other = sent("resume_sent", "sent", "resume");
  other.counter.family = "fcswitch_t_other_total";
  EXPECT_FALSE(well_formed(std::array{sent("pause_sent", "sent", "pause"), other}));
}

constexpr std::array kTableA = {
    fc::counter("frames_seen", "fcswitch_test_frames_seen_total", "Frames seen"),
    fc::gauge("level_bps", "fcswitch_test_level_bytes_per_second", "Level",
              fc::CounterUnit::kBitsPerSecond),
};
constexpr std::array kSameNameOtherFamily = {
    fc::counter("frames_seen", "fcswitch_test_frames_total", "Frames seen"),
};
constexpr std::array kOtherNameSameFamily = {
    fc::counter("frames_counted", "fcswitch_test_frames_seen_total", "Frames seen"),
};
constexpr std::array kSameNameOtherHelp = {
    fc::counter("frames_seen", "fcswitch_test_frames_seen_total", "Frames"),
};

constexpr std::array kSeries = {
    fc::counter("a_sent", "fcswitch_test_sent_total", "Sent, by kind"),
    fc::counter("b_sent", "fcswitch_test_sent_total", "Sent, by kind"),
};
constexpr std::array kSeriesOtherHelp = {
    fc::counter("a_sent", "fcswitch_test_sent_total", "Sent, by kind"),
    fc::counter("b_sent", "fcswitch_test_sent_total", "Sent"),
};
constexpr std::array kOtherTableSameFamily = {
    fc::counter("c_sent", "fcswitch_test_sent_total", "Sent, by kind"),
};

// Names share a family only as the series of a labelled family: within one table that says
// so, declared alike.
TEST(EngineMetricCatalog, SeriesShareAFamilyOnlyInALabelledTable) {
  const auto catalog = catalog_of({{"labelled", kSeries, true}});
  ASSERT_EQ(catalog.size(), 2u);
  EXPECT_EQ(catalog[0].family, catalog[1].family);
  EXPECT_THROW(catalog_of({{"plain", kSeries}}), std::logic_error);
  EXPECT_THROW(catalog_of({{"labelled", kSeriesOtherHelp, true}}), std::logic_error);
  EXPECT_THROW(catalog_of({{"labelled", kSeries, true}, {"other", kOtherTableSameFamily, true}}),
               std::logic_error);
}

TEST(EngineMetricCatalog, OneNameTwoWaysIsRefused) {
  const auto catalog = catalog_of({{"a", kTableA}, {"b", kTableA}});
  ASSERT_EQ(catalog.size(), 2u);  // the same declaration twice is one entry
  EXPECT_DOUBLE_EQ(catalog[1].scale, 1.0 / 8);
  EXPECT_THROW(catalog_of({{"a", kTableA}, {"b", kSameNameOtherFamily}}), std::logic_error);
  EXPECT_THROW(catalog_of({{"a", kTableA}, {"b", kOtherNameSameFamily}}), std::logic_error);
  EXPECT_THROW(catalog_of({{"a", kTableA}, {"b", kSameNameOtherHelp}}), std::logic_error);
}

// The rules a table is checked against when it is compiled (fc/counter_descriptor.h).
TEST(CounterDescriptor, FamiliesFollowPrometheusNaming) {
  using fc::counter_rules::well_formed;
  EXPECT_TRUE(well_formed(kTableA[0]));
  EXPECT_TRUE(well_formed(kTableA[1]));
  // A counter ends in _total, a gauge does not.
  EXPECT_FALSE(well_formed(fc::gauge("x", "fcswitch_x_total", "x")));
  EXPECT_FALSE(well_formed(fc::counter("x", "fcswitch_x", "x")));
  // The family is in the base unit of what is counted.
  EXPECT_FALSE(well_formed(
      fc::counter("paused_ns", "fcswitch_paused_ns_total", "x", fc::CounterUnit::kNanoseconds)));
  EXPECT_TRUE(well_formed(fc::counter("paused_ns", "fcswitch_paused_seconds_total", "x",
                                      fc::CounterUnit::kNanoseconds)));
  EXPECT_FALSE(well_formed(
      fc::gauge("credit_blocks", "fcswitch_credit_blocks", "x", fc::CounterUnit::kCreditBlocks)));
  // fcswitch_, snake_case, a help text.
  EXPECT_FALSE(well_formed(fc::counter("x", "other_x_total", "x")));
  EXPECT_FALSE(well_formed(fc::counter("Frames", "fcswitch_x_total", "x")));
  EXPECT_FALSE(well_formed(fc::counter("x", "fcswitch_x_total", "")));
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

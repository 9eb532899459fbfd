#pragma once
// The Prometheus view of the flow-control counters of a (port, priority): TX's and its
// watchdog's (node/flow_control_counters.h) and each engine half's, which every engine
// declares in a table next to its counters() (fc/counter_descriptor.h) and registers with
// FCSWITCH_REGISTER_ENGINE; PABO's and ECN's; and Pyrrha's of a switch
// (node/pyrrha_switch_counters.h). engine_metric() turns one descriptor into its family, type
// and scale to base units; the catalogue is every descriptor of those tables, the engines'
// read through the engine registry, so an engine's new counter is exposed, named, from its own
// table.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fc/counter_descriptor.h"

namespace fcswitch::metrics {

enum class MetricType { kCounter, kGauge };

struct EngineMetric {
  std::string_view counter;  // the reported name (JSON report, telemetry)
  std::string_view family;   // fcswitch_…, in base units (`_total` on counters)
  MetricType type;
  double scale;  // reported value × scale = the exposed value
  std::string_view help;
};

EngineMetric engine_metric(const fc::CounterDescriptor& counter);

// One table of counters and who declares it, for messages.
struct CounterTable {
  std::string declared_by;  // "TX", "engine pfc (egress gate)", ...
  std::span<const fc::CounterDescriptor> counters;
  // Its names are series of labelled families (Pyrrha's messages by kind, IQs by state: the
  // table's own check, node/pyrrha_switch_counters.h, holds each to its label): names of this
  // table may share a family when they declare it alike (type, unit, help).
  bool labelled_families = false;
};

// The tables' counters, each name once, in first-seen order. Throws std::logic_error when
// two tables declare one name differently, or two names share a family (other than within a
// table of labelled families, declared alike).
std::vector<EngineMetric> catalog_of(const std::vector<CounterTable>& tables);

// catalog_of TX's (and the watchdog's) table, PABO's and ECN's, each registered engine's two
// and Pyrrha's: every counter a (port, priority) or a switch's Pyrrha can report. Built on first
// use, after the engines have registered; a switch or lab builds it before it serves /metrics, so
// tables that disagree (a scrape would carry duplicate series) stop it at start.
const std::vector<EngineMetric>& engine_metric_catalog();

// The catalogue's entry for a reported name.
std::optional<EngineMetric> engine_metric(std::string_view counter);

}  // namespace fcswitch::metrics

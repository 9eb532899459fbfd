#pragma once
// The Prometheus view of running switches, made when scraped (STYLE.md: per-task counters
// summed at scrape time). Nothing here is on the hot path: every value is an OwnedCounter or
// OwnedGauge its task writes anyway, read with an acquire load; no task takes a lock or
// touches a prometheus::Counter per packet.
//
// Families (labels `node`, `port`, `prio`, `reason`, `engine`, `task`, `lcore`, `kind`,
// `state`; base units): per port and priority packets and bytes in and out, drops by reason,
// ingress occupancy, egress queue depth, flow-control frames and time, each engine's own
// counters (engine_metric_catalog.h), Tagger's rewrites; per switch running Pyrrha its messages
// by kind, roots and IQs by state (node/pyrrha_switch_counters.h); per task its polls; the
// mempool in use.

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <string>
#include <vector>

#include "node/switch_node.h"

namespace fcswitch::metrics {

struct NamedSwitch {
  std::string node;  // the `node` label: the switch's name (a lab has many)
  const SwitchNode* switch_node;
};

std::vector<prometheus::MetricFamily> collect_switch_metrics(
    const std::vector<NamedSwitch>& switches);

class SwitchCollector final : public prometheus::Collectable {
 public:
  explicit SwitchCollector(std::vector<NamedSwitch> switches) : switches_(std::move(switches)) {}
  std::vector<prometheus::MetricFamily> Collect() const override {
    return collect_switch_metrics(switches_);
  }

 private:
  std::vector<NamedSwitch> switches_;
};

}  // namespace fcswitch::metrics

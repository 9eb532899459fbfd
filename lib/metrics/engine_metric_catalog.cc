#include "metrics/engine_metric_catalog.h"

#include <span>
#include <stdexcept>
#include <string>

#include "fc/engine_registry.h"
#include "node/ecn_port_counters.h"
#include "node/flow_control_counters.h"
#include "node/pabo_port_counters.h"
#include "node/pyrrha_switch_counters.h"
#include "wire/credit_frame.h"

namespace fcswitch::metrics {

namespace {

constexpr double kSecondsPerNs = 1e-9;
constexpr double kBitsToBytes = 1.0 / 8;  // Prometheus' base unit is the byte

double base_unit_scale(fc::CounterUnit unit) {
  switch (unit) {
    case fc::CounterUnit::kNanoseconds:
      return kSecondsPerNs;
    case fc::CounterUnit::kBitsPerSecond:
      return kBitsToBytes;
    case fc::CounterUnit::kCreditBlocks:
      return static_cast<double>(wire::kCreditBlockBytes);
    case fc::CounterUnit::kNone:
      break;
  }
  return 1;
}

bool same_family(const EngineMetric& a, const EngineMetric& b) {
  return a.family == b.family && a.type == b.type && a.scale == b.scale && a.help == b.help;
}
bool same(const EngineMetric& a, const EngineMetric& b) {
  return a.counter == b.counter && same_family(a, b);
}

std::string describe(const EngineMetric& m, std::string_view where) {
  return std::string(where) + " declares " + std::string(m.counter) + " as " +
         std::string(m.family) + " (" + std::string(m.help) + ")";
}

std::vector<CounterTable> registered_tables() {
  std::vector<CounterTable> tables = {
      {"TX", kTxFlowControlCounters}, {"PABO", kPaboPortCounters}, {"ECN", kEcnPortCounters}};
  const fc::EngineRegistry& registry = fc::EngineRegistry::instance();
  for (std::string_view name : registry.names()) {
    const fc::EngineDescriptor& engine = *registry.find(name);
    tables.push_back(
        {"engine " + std::string(name) + " (feedback generator)", engine.generator_counters});
    tables.push_back({"engine " + std::string(name) + " (egress gate)", engine.gate_counters});
  }
  tables.push_back({"Pyrrha", kPyrrhaCounterDescriptors, true});
  return tables;
}

}  // namespace

std::vector<EngineMetric> catalog_of(const std::vector<CounterTable>& tables) {
  std::vector<EngineMetric> catalog;
  std::vector<const CounterTable*> declared_by;  // of each entry, for messages
  for (const CounterTable& table : tables)
    for (const fc::CounterDescriptor& counter : table.counters) {
      const EngineMetric metric = engine_metric(counter);
      bool known = false;
      for (size_t i = 0; i < catalog.size(); ++i) {
        if (catalog[i].counter != metric.counter && catalog[i].family != metric.family) continue;
        // Another series of a labelled family of the same table.
        const bool series = catalog[i].counter != metric.counter && declared_by[i] == &table &&
                            table.labelled_families && same_family(catalog[i], metric);
        if (!series && !same(catalog[i], metric))
          throw std::logic_error("counters declared twice, differently: " +
                                 describe(catalog[i], declared_by[i]->declared_by) + "; " +
                                 describe(metric, table.declared_by));
        if (!series) known = true;
      }
      if (known) continue;
      catalog.push_back(metric);
      declared_by.push_back(&table);
    }
  return catalog;
}

EngineMetric engine_metric(const fc::CounterDescriptor& counter) {
  return {counter.name, counter.family,
          counter.kind == fc::CounterKind::kCounter ? MetricType::kCounter : MetricType::kGauge,
          base_unit_scale(counter.unit), counter.help};
}

const std::vector<EngineMetric>& engine_metric_catalog() {
  static const std::vector<EngineMetric> catalog = catalog_of(registered_tables());
  return catalog;
}

std::optional<EngineMetric> engine_metric(std::string_view counter) {
  for (const EngineMetric& m : engine_metric_catalog())
    if (m.counter == counter) return m;
  return std::nullopt;
}

}  // namespace fcswitch::metrics

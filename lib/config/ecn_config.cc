#include "config/ecn_config.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <string>

#include "config/queue_list.h"
#include "config/table_reader.h"

namespace fcswitch::config {

namespace {

constexpr uint64_t kMaxEcnThresholdBytes = 1ull << 34;  // as [buffer]'s sizes: far above any buffer

// One ecn table ([ecn] or a port's), its keys read and checked once.
struct EcnLayer {
  const toml::table* table = nullptr;
  std::string path;
  std::optional<PriorityMask> queues;
  std::optional<uint64_t> k_min_bytes, k_max_bytes;
  std::optional<double> p_max;
  bool broken = false;  // k_max < k_min within this table (refused)

  // Where `key` is set, for a rule broken between keys of several tables.
  const toml::node* node(std::string_view key) const { return table->get(key); }
};

EcnLayer read_ecn_layer(const toml::table& table, std::string path, ConfigProblems& problems,
                        bool switch_wide, EcnParams& params) {
  EcnLayer layer{&table, path, {}, {}, {}, {}, false};
  TableReader reader(table, std::move(path), problems);
  if (auto queues = read_queue_list(reader, "queues", false))
    layer.queues = static_cast<PriorityMask>(*queues);
  layer.k_min_bytes = reader.bytes("k_min", 0, kMaxEcnThresholdBytes);
  layer.k_max_bytes = reader.bytes("k_max", 0, kMaxEcnThresholdBytes);
  if (const toml::node* p = reader.node("p_max")) {
    std::optional<double> value;
    if (const auto* f = p->as_floating_point()) value = f->get();
    if (const auto* i = p->as_integer()) value = static_cast<double>(i->get());
    if (value && 0 < *value && *value <= 1)  // NaN is refused: it is in no range
      layer.p_max = value;
    else
      reader.refuse("p_max", "a marking probability in (0, 1] (DCQCN's P_max at K_max)");
  }
  if (switch_wide) {
    if (auto seed = reader.integer("seed", 0, INT64_MAX))
      params.seed = static_cast<uint64_t>(*seed);
  }
  // Both in one table: checked here, once, whichever ports use them.
  if (layer.k_min_bytes && layer.k_max_bytes && *layer.k_max_bytes < *layer.k_min_bytes) {
    reader.refuse("k_max", fmt::format("at least k_min ({} bytes)", *layer.k_min_bytes),
                  fmt::format("{} bytes", *layer.k_max_bytes));
    layer.broken = true;
  }
  reader.reject_unknown_keys();
  return layer;
}

// The first of `layers` (most specific first) that sets the key.
template <typename T, typename Get>
std::pair<std::optional<T>, const EcnLayer*> first(const std::vector<const EcnLayer*>& layers,
                                                   Get get) {
  for (const EcnLayer* layer : layers)
    if (auto v = get(*layer)) return {v, layer};
  return {std::nullopt, nullptr};
}

// A problem with `key` of `holder`, once per place (several ports can inherit one).
class Refusals {
 public:
  explicit Refusals(ConfigProblems& problems) : problems_(problems) {}

  void refuse(const EcnLayer& holder, std::string_view key, std::string_view expected,
              std::string_view found) {
    const toml::node* node = holder.node(key);
    const toml::source_region where = node ? node->source() : holder.table->source();
    const std::string path = fmt::format("{}.{}", holder.path, key);
    if (!seen_.emplace(path, fmt::format("{} {}", expected, found)).second) return;
    problems_.expected(where, path, expected, found);
  }

 private:
  ConfigProblems& problems_;
  std::set<std::pair<std::string, std::string>> seen_;
};

std::string queue_list_text(PriorityMask mask) {
  std::string out;
  for (int q = 0; q < kNumPriorities; ++q)
    if (has_priority(mask, q)) out += fmt::format("{}{}", out.empty() ? "" : ", ", q);
  return "[" + out + "]";
}

}  // namespace

void read_ecn(TableReader& root, const std::vector<const toml::table*>& port_tables,
              SwitchConfig& config) {
  ConfigProblems& problems = root.problems();
  std::optional<EcnLayer> switch_layer;
  if (const toml::table* table = root.table("ecn"))
    switch_layer = read_ecn_layer(*table, "ecn", problems, true, config.ecn);
  Refusals refusals(problems);

  for (size_t port_index = 0; port_index < config.ports.size(); ++port_index) {
    PortConfig& port = config.ports[port_index];
    std::optional<EcnLayer> port_layer;
    if (port_index < port_tables.size() && port_tables[port_index])
      port_layer =
          read_ecn_layer(*port_tables[port_index], fmt::format("ports[{}].ecn", port_index),
                         problems, false, config.ecn);
    std::vector<const EcnLayer*> layers;
    if (port_layer) layers.push_back(&*port_layer);
    if (switch_layer) layers.push_back(&*switch_layer);

    const auto [queues, queues_holder] =
        first<PriorityMask>(layers, [](const EcnLayer& l) { return l.queues; });
    if (!queues || !*queues) continue;
    if (const PriorityMask bouncing = *queues & config.pabo.priorities)
      refusals.refuse(*queues_holder, "queues",
                      "queues without PABO: a PABO queue bounces instead of marking",
                      queue_list_text(bouncing) + " in [pabo] priorities");
    const auto [k_min, k_min_holder] =
        first<uint64_t>(layers, [](const EcnLayer& l) { return l.k_min_bytes; });
    if (!k_min) {
      refusals.refuse(*queues_holder, "k_min",
                      "the queue depth where marking starts (bytes, e.g. \"40KB\")", "nothing");
      continue;
    }
    // No K_max: a step at K_min (DCTCP's single threshold).
    const auto [k_max, k_max_holder] =
        first<uint64_t>(layers, [](const EcnLayer& l) { return l.k_max_bytes; });
    if (k_max && *k_max < *k_min) {
      // One table's own pair was refused as it was read; a port's key against [ecn]'s is
      // refused at the port's.
      if (k_min_holder->broken || k_max_holder->broken) continue;
      if (port_layer && k_min_holder == &*port_layer)
        refusals.refuse(*port_layer, "k_min",
                        fmt::format("at most k_max ({} bytes, ecn.k_max)", *k_max),
                        fmt::format("{} bytes", *k_min));
      else
        refusals.refuse(*port_layer, "k_max",
                        fmt::format("at least k_min ({} bytes, ecn.k_min)", *k_min),
                        fmt::format("{} bytes", *k_max));
      continue;
    }
    port.ecn.queues = *queues;
    port.ecn.profile.k_min_bytes = *k_min;
    port.ecn.profile.k_max_bytes = k_max.value_or(*k_min);
    port.ecn.profile.p_max =
        first<double>(layers, [](const EcnLayer& l) { return l.p_max; }).first.value_or(1.0);
  }
}

}  // namespace fcswitch::config

#include "config/flow_control_config.h"

#include <fmt/format.h>

#include <optional>
#include <string>

#include "config/switch_config.h"
#include "config/table_reader.h"
#include "fc/response_time.h"
#include "wire/ether_type.h"
#include "wire/pfc_frame.h"

namespace fcswitch::config {

namespace {

constexpr uint64_t kMaxDurationNs = 60ull * kNsPerSecond;

// One flow_control table, its keys read and checked once.
struct FlowControlLayer {
  const toml::table* table = nullptr;
  std::string path;
  std::optional<std::string> engine;
  toml::source_region engine_source;
  std::optional<uint64_t> response_time_ns;
  std::optional<bool> trust;
  std::optional<uint64_t> detect_ns, restore_ns;
  std::optional<fc::WatchdogAction> action;
  std::optional<uint16_t> stage_opcode;
  std::optional<uint64_t> limiter_catch_up_ns;
};

// An engine's keys over several tables, the first one holding a key giving its value.
class LayeredParamReader final : public fc::ParamReader {
 public:
  LayeredParamReader(ConfigProblems& problems, toml::source_region fallback_source,
                     std::string fallback_path, std::string context)
      : problems_(problems),
        fallback_source_(std::move(fallback_source)),
        fallback_path_(std::move(fallback_path)),
        context_(std::move(context)) {}

  void add(const toml::table& table, std::string path) {
    readers_.push_back(std::make_unique<TableReader>(table, std::move(path), problems_));
  }
  std::optional<uint64_t> bytes(std::string_view key, uint64_t min, uint64_t max) override {
    TableReader* r = holder(key);
    return r ? r->bytes(key, min, max) : std::nullopt;
  }
  std::optional<int64_t> integer(std::string_view key, int64_t min, int64_t max) override {
    TableReader* r = holder(key);
    return r ? r->integer(key, min, max) : std::nullopt;
  }
  std::optional<uint64_t> duration_ns(std::string_view key, uint64_t min, uint64_t max) override {
    TableReader* r = holder(key);
    return r ? r->duration_ns(key, min, max) : std::nullopt;
  }
  std::optional<bool> boolean(std::string_view key) override {
    TableReader* r = holder(key);
    return r ? r->boolean(key) : std::nullopt;
  }
  void refuse(std::string_view key, std::string_view expected, std::string_view found) override {
    const std::string what = with_context(expected);
    if (TableReader* r = holder(key)) {
      // A rule that needs no link was checked on the table alone (read_flow_control_layer): say it
      // once, not again for each port the table reaches.
      if (!context_.empty() && problems_.has_problem(r->raw().get(key)->source(), r->key_path(key)))
        return;
      return r->refuse(key, what, found);
    }
    // Broken by a default: pin it where the engine was chosen.
    problems_.expected(fallback_source_, fmt::format("{}.{}", fallback_path_, key), what, found);
  }
  void warn(std::string_view key, std::string_view expected, std::string_view found) override {
    const std::string what = with_context(expected);
    if (TableReader* r = holder(key)) return r->warn(key, what, found);
    problems_.warn(fallback_source_, fmt::format("{}.{}", fallback_path_, key), what, found);
  }
  void reject_unknown_keys() {
    for (auto& r : readers_) r->reject_unknown_keys();
  }

 private:
  std::string with_context(std::string_view expected) const {
    return context_.empty() ? std::string(expected) : fmt::format("{} {}", expected, context_);
  }
  TableReader* holder(std::string_view key) {
    for (auto& r : readers_)
      if (r->has(key)) return r.get();
    return nullptr;
  }

  ConfigProblems& problems_;
  toml::source_region fallback_source_;
  std::string fallback_path_;
  std::string context_;
  std::vector<std::unique_ptr<TableReader>> readers_;
};

void read_watchdog(TableReader& reader, FlowControlLayer& layer) {
  const toml::table* table = reader.table("watchdog");
  if (!table) return;
  TableReader w(*table, reader.key_path("watchdog"), reader.problems());
  layer.detect_ns = w.duration_ns("detect", 0, kMaxDurationNs);
  layer.restore_ns = w.duration_ns("restore", 0, kMaxDurationNs);
  if (auto action = w.choice("action", {"alert", "forward", "drop"}))
    layer.action = *action == "drop"      ? fc::WatchdogAction::kDrop
                   : *action == "forward" ? fc::WatchdogAction::kForward
                                          : fc::WatchdogAction::kAlert;
  w.reject_unknown_keys();
}

// Reads and checks one table. Port and switch tables may hold per-priority tables and the
// per-link keys; a priority table only the engine and its keys.
FlowControlLayer read_flow_control_layer(
    const toml::table& table, std::string path, ConfigProblems& problems, bool per_link,
    std::array<std::optional<FlowControlLayer>, kNumPriorities>* priorities) {
  FlowControlLayer layer;
  layer.table = &table;
  layer.path = path;
  TableReader reader(table, path, problems);
  const auto names = fc::EngineRegistry::instance().names();
  if (auto engine = reader.choice("engine", names)) {
    layer.engine = *engine;
    layer.engine_source = table.get("engine")->source();
  }
  if (per_link) {
    layer.response_time_ns = reader.duration_ns("response_time", 1, kMaxDurationNs);
    layer.trust = reader.boolean("trust");
    // Any MAC Control opcode but 0 and 802.3x PAUSE.
    if (auto opcode = reader.integer("stage_opcode", 0x0002, 0xFFFF))
      layer.stage_opcode = static_cast<uint16_t>(*opcode);
    layer.limiter_catch_up_ns = reader.duration_ns("limiter_catch_up", 0, kNsPerSecond / 1000);
    read_watchdog(reader, layer);
    if (const toml::table* by_priority = reader.table("priority")) {
      for (const auto& [key, node] : *by_priority) {
        const std::string sub = fmt::format("{}.priority.{}", path, key.str());
        const int p = key.str().size() == 1 ? key.str()[0] - '0' : -1;
        const auto* t = node.as_table();
        if (p < 0 || p >= kNumPriorities || !t) {
          problems.expected(key.source(), sub, "a table named by a priority in [0, 7]",
                            fmt::format("\"{}\" = {}", key.str(), describe(node)));
          continue;
        }
        (*priorities)[p] = read_flow_control_layer(*t, sub, problems, false, nullptr);
      }
    }
  }
  // Each engine's table is checked on its own, whichever engine is chosen, so a typo in a
  // table not in use is still found.
  for (auto name : names) {
    const toml::table* sub = reader.table(name);
    if (!sub) continue;
    LayeredParamReader engine_reader(problems, table.source(), path, "");
    engine_reader.add(*sub, reader.key_path(name));
    fc::EngineRegistry::instance().find(name)->parse(engine_reader, nullptr);
    engine_reader.reject_unknown_keys();
  }
  reader.reject_unknown_keys();
  return layer;
}

template <typename T, typename Get>
std::optional<T> first(const std::vector<const FlowControlLayer*>& layers, Get get) {
  for (const FlowControlLayer* layer : layers)
    if (auto v = get(*layer)) return v;
  return std::nullopt;
}

}  // namespace

void read_flow_control(TableReader& root, const std::vector<const toml::table*>& port_tables,
                       SwitchConfig& config) {
  ConfigProblems& problems = root.problems();
  std::array<std::optional<FlowControlLayer>, kNumPriorities> switch_priorities;
  std::optional<FlowControlLayer> switch_layer;
  if (const toml::table* table = root.table("flow_control"))
    switch_layer =
        read_flow_control_layer(*table, "flow_control", problems, true, &switch_priorities);

  for (size_t port_index = 0; port_index < config.ports.size(); ++port_index) {
    PortConfig& port = config.ports[port_index];
    std::array<std::optional<FlowControlLayer>, kNumPriorities> port_priorities;
    std::optional<FlowControlLayer> port_layer;
    const std::string port_path = fmt::format("ports[{}].flow_control", port_index);
    if (port_index < port_tables.size() && port_tables[port_index])
      port_layer = read_flow_control_layer(*port_tables[port_index], port_path, problems, true,
                                           &port_priorities);

    std::vector<const FlowControlLayer*> link_layers;
    if (port_layer) link_layers.push_back(&*port_layer);
    if (switch_layer) link_layers.push_back(&*switch_layer);
    PortFlowControl& fc = port.flow_control;
    fc.trust =
        first<bool>(link_layers, [](const FlowControlLayer& l) { return l.trust; }).value_or(true);
    fc.response_time_ns =
        first<uint64_t>(link_layers, [](const FlowControlLayer& l) { return l.response_time_ns; })
            .value_or(fc::eq6_response_time_ns(port.rate_bps, fc::kEq6MtuBytes, fc::kEq6WireNs,
                                               fc::kEq6ProcessingNs, port.committed_frames()));
    if (auto v =
            first<uint64_t>(link_layers, [](const FlowControlLayer& l) { return l.detect_ns; }))
      fc.watchdog.detect_ns = *v;
    if (auto v =
            first<uint64_t>(link_layers, [](const FlowControlLayer& l) { return l.restore_ns; }))
      fc.watchdog.restore_ns = *v;
    if (auto v = first<fc::WatchdogAction>(link_layers,
                                           [](const FlowControlLayer& l) { return l.action; }))
      fc.watchdog.action = *v;
    if (auto v =
            first<uint16_t>(link_layers, [](const FlowControlLayer& l) { return l.stage_opcode; }))
      fc.stage_opcode = *v;
    // Under 0x88B5 a receiver tells a PFC-layout frame from our subtypes by the opcode's first
    // byte, 0x01 (wire/control_frame_kind.h): another one would be taken for data or credits.
    if (port.control_ether_type == wire::kEtherTypeLocalExperimental1 &&
        fc.stage_opcode >> 8 != wire::kPfcOpcode >> 8)
      for (const FlowControlLayer* layer : link_layers)
        if (layer->stage_opcode) {
          const toml::node* key = layer->table->get("stage_opcode");
          problems.expected(key ? key->source() : layer->table->source(),
                            layer->path + ".stage_opcode",
                            "an opcode 0x01xx with control_ether_type = 0x88B5 (the receiver "
                            "tells PFC-layout frames from 0x88B5's subtypes by that byte)",
                            fmt::format("0x{:04X}", fc.stage_opcode));
          break;
        }
    if (auto v = first<uint64_t>(link_layers,
                                 [](const FlowControlLayer& l) { return l.limiter_catch_up_ns; }))
      fc.limiter_catch_up_ns = *v;

    const fc::LinkParams link = port.link_params(config.buffer.lossless_ingress_bytes);
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      std::vector<const FlowControlLayer*> layers;
      if (port_priorities[prio]) layers.push_back(&*port_priorities[prio]);
      if (port_layer) layers.push_back(&*port_layer);
      if (switch_priorities[prio]) layers.push_back(&*switch_priorities[prio]);
      if (switch_layer) layers.push_back(&*switch_layer);
      const bool lossless = has_priority(config.lossless_priorities, prio);
      for (const auto* named : {&port_priorities[prio], &switch_priorities[prio]}) {
        if (*named && !lossless)
          problems.note((*named)->table->source(), (*named)->path,
                        fmt::format("priority {} is not in switch.lossless_priorities", prio));
      }
      if (!lossless) continue;
      const FlowControlLayer* chooser = nullptr;
      for (const FlowControlLayer* l : layers)
        if (l->engine) {
          chooser = l;
          break;
        }
      if (!chooser || *chooser->engine == "none") continue;
      const fc::EngineDescriptor* engine = fc::EngineRegistry::instance().find(*chooser->engine);
      // Keys set for every port are checked against each port's link: say which one broke.
      const bool shared = (switch_layer && chooser == &*switch_layer) ||
                          (switch_priorities[prio] && chooser == &*switch_priorities[prio]);
      LayeredParamReader reader(
          problems, chooser->engine_source, fmt::format("{}.{}", chooser->path, engine->name),
          shared ? fmt::format("on port \"{}\" priority {}", port.name, prio) : "");
      for (const FlowControlLayer* l : layers)
        if (const toml::node* sub = l->table->get(engine->name); sub && sub->as_table())
          reader.add(*sub->as_table(), fmt::format("{}.{}", l->path, engine->name));
      auto params = engine->parse(reader, &link);
      if (params) fc.priorities[prio] = PriorityFlowControl{engine, std::move(params)};
    }
  }
}

}  // namespace fcswitch::config

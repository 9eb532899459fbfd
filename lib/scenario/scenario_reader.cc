// The scenario read from TOML: ScenarioReader's order of the sections (read()), [lab] with its
// tagger rules file and [deadlock]; parse_lab_scenario and load_lab_scenario.
#include "scenario/scenario_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/config_error.h"
#include "config/config_problems.h"
#include "config/table_reader.h"
#include "config/text_file.h"
#include "config/toml_text.h"
#include "scenario/scenario_file.h"
#include "scenario/toml_overrides.h"

namespace fcswitch::lab {

using config::TableReader;

ScenarioReader::ScenarioReader(const toml::table& root, LabScenario& out)
    : root_(root), out_(out), problems_(out.file), reader_(root, "", problems_) {}

void ScenarioReader::read() {
  read_lab();
  read_deadlock();
  for (std::string_view section : kScenarioSharedSections) reader_.table(section);
  read_topology();
  if (topology_refused_) {
    // Every later section names the network's nodes, which [topology] did not make: what
    // they would say ("no host T1h1", one line a flow) is its one problem again.
    for (std::string_view section : {"hosts", "switches", "links", "flows", "workloads", "events"})
      reader_.node(section);
    read_transport();
  } else {
    read_nodes("hosts", true);
    read_nodes("switches", false);
    read_links();
    read_transport();
    read_flows();
    read_workloads();
    read_events();
  }
  reader_.reject_unknown_keys();
  if (problems_.empty()) {
    build_node_configs();
    if (out_.nodes.size() == sketches_.size()) {
      read_event_routes();
      // A flow between hosts the network does not join (compute_routes) has no route
      // either: one line for it, not again at its switches; nor at every event a flow
      // the routes before the run do not take. Events at time 0 are applied before any
      // frame moves, so the routes after them are the first a frame meets: the event
      // check walks those, and gives a flow's own line where the routes before them
      // failed it the same way (check_flow_routes' refusals, kept in pre_run_refusals_).
      if (!flood_unrouted_ && !routes_moot_) {
        const size_t before = node_problems_.size();
        check_flow_routes();
        const bool events_at_time_zero = std::any_of(
            out_.events.begin(), out_.events.end(), [](const LabEvent& e) { return e.at_ns == 0; });
        if (events_at_time_zero) node_problems_.resize(before);
        if (node_problems_.size() == before) check_event_failures();
      }
      // In time order from here on (out_.events was in the file's order, as event_entry_).
      std::stable_sort(out_.events.begin(), out_.events.end(),
                       [](const LabEvent& a, const LabEvent& b) { return a.at_ns < b.at_ns; });
    }
  }
  for (std::string& w : problems_.take_warnings()) out_.warnings.push_back(std::move(w));
  for (std::string& w : node_config_warnings_.lines(sketches_.size()))
    out_.warnings.push_back(std::move(w));
  for (std::string& w : route_warnings_) out_.warnings.push_back(std::move(w));
  for (std::string& p : node_config_problems_.lines(sketches_.size()))
    node_problems_.push_back(std::move(p));
  std::vector<std::string> all = problems_.take();
  for (std::string& p : node_problems_)
    if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(std::move(p));
  if (!all.empty()) throw config::ConfigError(std::move(all));
}

void ScenarioReader::read_lab() {
  const toml::table* table = reader_.table("lab", true);
  if (!table) return;
  TableReader r(*table, "lab", problems_);
  out_.name = r.string("name").value_or("lab");
  if (auto d = r.duration_ns("duration", 1000, kScenarioMaxDurationNs)) out_.duration_ns = *d;
  if (!r.has("duration"))
    problems_.expected(table->source(), "lab.duration", "a duration (\"50ms\")", "nothing");
  if (auto c = r.choice("clock", {"virtual", "virtual-poll-all", "wall"}))
    for (LabClock clock : {LabClock::kVirtual, LabClock::kVirtualPollAll, LabClock::kWall})
      if (*c == clock_name(clock)) out_.clock = clock;
  if (auto s = r.integer("seed", 0, INT64_MAX)) out_.seed = static_cast<uint64_t>(*s);
  if (auto s = r.duration_ns("sample_interval", 1000, kScenarioMaxDurationNs))
    out_.sample_interval_ns = *s;
  const toml::node* interval = table->get("sample_interval");
  const toml::source_region& at = interval ? interval->source() : table->source();
  out_.sample_interval_place = problems_.place(at);  // a --set's value names the --set
  if (auto b = r.bytes("csv_limit", 1, UINT64_MAX)) out_.csv_limit_bytes = *b;
  if (auto j = r.duration_ns("start_jitter", 0, kScenarioMaxDurationNs)) out_.start_jitter_ns = *j;
  if (auto n = r.integer("tx_ring_frames", 1, 4096))
    out_.tx_ring_frames = static_cast<unsigned>(*n);
  if (auto n = r.integer("mbufs", 1023, kMaxLabMbufs)) out_.mbufs = static_cast<unsigned>(*n);
  if (auto f = r.string("tagger_rules")) read_tagger_rules(r, *f);
  if (auto f = r.boolean("flood_unrouted")) flood_unrouted_ = *f;
  r.reject_unknown_keys();
}

// tagger-gen's output: a table per switch name with that switch's `rules`. The path is
// relative to the scenario's directory.
void ScenarioReader::read_tagger_rules(TableReader& r, const std::string& file) {
  std::filesystem::path path(file);
  if (path.is_relative()) path = std::filesystem::path(out_.file).parent_path() / path;
  if (auto reason = config::unreadable_file_reason(path.string())) {
    r.refuse("tagger_rules",
             fmt::format("a tagger-gen rules file ({} {})", path.string(), *reason));
    return;
  }
  try {
    tagger_rules_ = toml::parse_file(path.string());
    tagger_rules_file_ = path.string();
  } catch (const toml::parse_error& error) {
    const auto& at = error.source().begin;
    r.refuse("tagger_rules", fmt::format("a tagger-gen rules file ({}:{}:{}: {})", path.string(),
                                         at.line, at.column, error.description()));
  }
}

void ScenarioReader::read_deadlock() {
  const toml::table* table = reader_.table("deadlock");
  if (!table) return;
  TableReader r(*table, "deadlock", problems_);
  if (auto d = r.duration_ns("blocked_for", 1000, kScenarioMaxDurationNs))
    out_.deadlock.blocked_for_ns = *d;
  if (auto d = r.duration_ns("check_interval", 1000, kScenarioMaxDurationNs))
    out_.deadlock.check_interval_ns = *d;
  r.reject_unknown_keys();
}

LabScenario parse_lab_scenario(std::string_view text, const std::string& file,
                               const std::vector<std::string>& overrides, size_t sweep_from) {
  toml::table root = config::parse_toml_text(text, file);
  std::vector<std::string> problems;
  for (size_t i = 0; i < overrides.size(); ++i)
    apply_override(root, overrides[i], problems, i >= sweep_from ? "--sweep" : "--set");
  if (!problems.empty()) throw config::ConfigError(std::move(problems));
  LabScenario scenario;
  scenario.file = file;
  scenario.overrides = overrides;
  ScenarioReader(root, scenario).read();
  if (is_virtual(scenario.clock))
    // Polls come exactly when a limiter opens: no lateness to forgive (rate_limiter.h).
    for (LabNode& node : scenario.nodes)
      for (auto& port : node.config.ports) port.flow_control.limiter_catch_up_ns = 0;
  for (FlowSpec& flow : scenario.flows)
    flow.priority = scenario.nodes[flow.src].config.priority_maps.dscp_to_priority[flow.dscp];
  return scenario;
}

LabScenario load_lab_scenario(const std::string& path, const std::vector<std::string>& overrides,
                              size_t sweep_from) {
  return parse_lab_scenario(config::read_text_file(path), path, overrides, sweep_from);
}

}  // namespace fcswitch::lab

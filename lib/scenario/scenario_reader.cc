#include "scenario/lab_scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "config/config_error.h"
#include "config/config_problems.h"
#include "config/plain_name.h"
#include "config/table_reader.h"
#include "config/text_file.h"
#include "config/toml_text.h"
#include "scenario/flow_shape_reader.h"
#include "scenario/workload_flows.h"
#include "scenario/workload_spec.h"
#include "topology/flow_hash.h"
#include "topology/host_connectivity.h"
#include "topology/host_table.h"
#include "topology/link_failures.h"
#include "topology/shortest_routes.h"
#include "topology/topology_spec.h"
#include "topology/updown_routes.h"

namespace fcswitch::lab {

namespace {

using config::ConfigProblems;
using config::TableReader;

// The fcswitch sections every node starts from, and the keys the lab fills in itself.
constexpr std::string_view kSharedSections[] = {"switch", "classify", "buffer", "flow_control",
                                                "tagger", "pabo",     "pyrrha", "ecn"};
constexpr std::string_view kPortKeysOwnedByLab[] = {"device", "rate", "tx_descriptors"};
constexpr uint64_t kMaxDurationNs = kMaxFlowDurationNs;

// `from` over `into`, table by table; `from`'s values win. Its nodes are moved, not copied:
// toml++ copies a node without its source place, and a --set value's place names the --set.
// A table set over an array of tables (`--set flows.rate=…`) goes over each element: each
// takes the same table from a parse of its own (`parse_again`, at `path`), which has places;
// without `parse_again`, a copy (no places).
using TomlParse = std::function<toml::table()>;
void deep_merge(toml::table& into, toml::table&& from, const TomlParse& parse_again,
                std::vector<std::string>& path) {
  for (auto&& [key, node] : from) {
    toml::node* mine = into.get(key.str());
    path.emplace_back(key.str());
    if (mine && mine->is_table() && node.is_table()) {
      deep_merge(*mine->as_table(), std::move(*node.as_table()), parse_again, path);
    } else if (mine && mine->is_array_of_tables() && node.is_table()) {
      // A table over an array of tables goes over each (`--set flows.burst=500`: every flow).
      for (toml::node& element : *mine->as_array()) {
        toml::table again = parse_again ? parse_again() : toml::table(*node.as_table());
        toml::node* same = &again;
        if (parse_again)  // the same text parses to the same tables: `path` is there
          for (const std::string& k : path) same = same->as_table()->get(k);
        deep_merge(*element.as_table(), std::move(*same->as_table()), parse_again, path);
      }
    } else {
      into.insert_or_assign(key, std::move(node));
    }
    path.pop_back();
  }
}
void deep_merge(toml::table& into, toml::table&& from) {
  std::vector<std::string> path;
  deep_merge(into, std::move(from), nullptr, path);
}

// "a.b.c=value" → merged into `root`. A value that is not TOML is taken as a string
// (`--set flow_control.priority.3.engine=pfc`).
void apply_override(toml::table& root, const std::string& assignment,
                    std::vector<std::string>& problems) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    problems.push_back(
        fmt::format("--set {}: expected key=value, found no '=' after a key", assignment));
    return;
  }
  const std::string source = fmt::format("--set {}", assignment);
  const auto merge = [&](const std::string& text) {
    std::vector<std::string> path;
    deep_merge(
        root, toml::parse(text, source), [&] { return toml::parse(text, source); }, path);
  };
  try {
    merge(assignment);
    return;
  } catch (const toml::parse_error&) {
  }
  std::ostringstream quoted_value;
  quoted_value << toml::value<std::string>(assignment.substr(eq + 1));  // TOML's quoting
  const std::string quoted = fmt::format("{}={}", assignment.substr(0, eq), quoted_value.str());
  try {
    merge(quoted);
  } catch (const toml::parse_error& error) {
    problems.push_back(fmt::format("{}: {}", source, error.description()));
  }
}

// What the lab knows of a node before its config is read: enough to resolve links.
struct NodeSketch {
  std::string name;
  bool host = false;
  bool generated = false;   // by [topology]
  bool overridden = false;  // a [[switches]] entry of the same name was merged over it
  int tier = -1;            // switches: 0 ToR/edge, 1 leaf/aggregation, 2 spine/core
  const toml::table* table = nullptr;
  std::vector<std::string> ports;
  // The scenario's own entry for the node ([[switches]], [[hosts]]), which keeps its places in
  // the file; for a generated switch, the entry that overrides it (its ports after the
  // generated ones: `given_port_offset` of them).
  const toml::table* given = nullptr;
  size_t given_port_offset = 0;
};

struct LinkDefaults {
  uint64_t rate_bps = 10'000'000'000;
  uint64_t delay_ns = 0;
};

// A node's name prefixes its DPDK objects, as a switch's does.
bool valid_node_name(std::string_view name) {
  return config::is_plain_name(name, 12);
}

class ScenarioReader {
 public:
  ScenarioReader(const toml::table& root, LabScenario& out)
      : root_(root), out_(out), problems_(out.file), reader_(root, "", problems_) {}

  void read() {
    read_lab();
    read_deadlock();
    for (std::string_view section : kSharedSections) reader_.table(section);
    read_topology();
    if (topology_refused_) {
      // Every later section names the network's nodes, which [topology] did not make: what
      // they would say ("no host T1h1", one line a flow) is its one problem again.
      for (std::string_view section :
           {"hosts", "switches", "links", "flows", "workloads", "events"})
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
          const bool events_at_time_zero =
              std::any_of(out_.events.begin(), out_.events.end(),
                          [](const LabEvent& e) { return e.at_ns == 0; });
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
    for (std::string& p : node_config_problems_.lines(sketches_.size()))
      node_problems_.push_back(std::move(p));
    std::vector<std::string> all = problems_.take();
    for (std::string& p : node_problems_)
      if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(std::move(p));
    if (!all.empty()) throw config::ConfigError(std::move(all));
  }

 private:
  void read_lab() {
    const toml::table* table = reader_.table("lab", true);
    if (!table) return;
    TableReader r(*table, "lab", problems_);
    out_.name = r.string("name").value_or("lab");
    if (auto d = r.duration_ns("duration", 1000, kMaxDurationNs)) out_.duration_ns = *d;
    if (!r.has("duration"))
      problems_.expected(table->source(), "lab.duration", "a duration (\"50ms\")", "nothing");
    if (auto c = r.choice("clock", {"virtual", "virtual-poll-all", "wall"}))
      for (LabClock clock : {LabClock::kVirtual, LabClock::kVirtualPollAll, LabClock::kWall})
        if (*c == clock_name(clock)) out_.clock = clock;
    if (auto s = r.integer("seed", 0, INT64_MAX)) out_.seed = static_cast<uint64_t>(*s);
    if (auto s = r.duration_ns("sample_interval", 1000, kMaxDurationNs))
      out_.sample_interval_ns = *s;
    const toml::node* interval = table->get("sample_interval");
    const toml::source_region& at = interval ? interval->source() : table->source();
    out_.sample_interval_place = problems_.place(at);  // a --set's value names the --set
    if (auto b = r.bytes("csv_limit", 1, UINT64_MAX)) out_.csv_limit_bytes = *b;
    if (auto j = r.duration_ns("start_jitter", 0, kMaxDurationNs)) out_.start_jitter_ns = *j;
    if (auto n = r.integer("tx_ring_frames", 1, 4096))
      out_.tx_ring_frames = static_cast<unsigned>(*n);
    if (auto n = r.integer("mbufs", 1023, 4'194'303)) out_.mbufs = static_cast<unsigned>(*n);
    if (auto f = r.string("tagger_rules")) read_tagger_rules(r, *f);
    if (auto f = r.boolean("flood_unrouted")) flood_unrouted_ = *f;
    r.reject_unknown_keys();
  }

  // tagger-gen's output: a table per switch name with that switch's `rules`. The path is
  // relative to the scenario's directory.
  void read_tagger_rules(TableReader& r, const std::string& file) {
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

  // [topology]: a generated network (lib/topology's generators), link defaults with per-tier
  // overrides, and how every switch routes to every host.
  void read_topology() {
    const toml::table* table = reader_.table("topology");
    if (!table) return;
    TableReader r(*table, "topology", problems_);
    if (auto routing = r.choice("routing", {"static", "shortest", "updown"}))
      routing_ = *routing == "shortest" ? RoutingMode::kShortest
                 : *routing == "updown" ? RoutingMode::kUpdown
                                        : RoutingMode::kStatic;
    else if (table->contains("spec"))
      routing_ = RoutingMode::kShortest;
    if (auto seed = r.integer("ecmp_seed", 0, UINT32_MAX))
      ecmp_seed_ = static_cast<uint32_t>(*seed);
    LinkDefaults all;
    if (auto rate = r.rate_bps("rate", 1'000'000, 400'000'000'000)) all.rate_bps = *rate;
    if (auto delay = r.duration_ns("delay", 0, kNsPerSecond)) all.delay_ns = *delay;
    link_defaults_ = all;
    // [topology.tier.N]: links from tier N up to N + 1; [topology.tier.hosts]: host links.
    std::map<std::string, LinkDefaults, std::less<>> tiers;
    if (const toml::table* tier_table = r.table("tier")) {
      TableReader tr(*tier_table, "topology.tier", problems_);
      for (const auto& [key, node] : *tier_table) {
        const std::string name(key.str());
        const bool numbered = name.size() == 1 && name[0] >= '0' && name[0] <= '6';
        const toml::table* t = tr.table(name);
        if (!numbered && name != "hosts") {
          tr.refuse(name, "a tier: \"hosts\" or a number 0-6");
          continue;
        }
        if (!t) continue;
        TableReader one(*t, "topology.tier." + name, problems_);
        LinkDefaults d = all;
        if (auto rate = one.rate_bps("rate", 1'000'000, 400'000'000'000)) d.rate_bps = *rate;
        if (auto delay = one.duration_ns("delay", 0, kNsPerSecond)) d.delay_ns = *delay;
        one.reject_unknown_keys();
        tiers[name] = d;
      }
    }
    std::optional<double> fail_probability;
    uint64_t fail_seed = out_.seed;
    bool keep_connected = true;
    const toml::array* fixed_failures = nullptr;
    std::optional<TableReader> failures_reader;
    if (const toml::table* failures = r.table("failures")) {
      TableReader& f = failures_reader.emplace(*failures, "topology.failures", problems_);
      fixed_failures = f.array("links");
      fail_probability = f.number("probability", 0.0, 1.0);
      // A value of the wrong type is refused by number() or array(), and not again here.
      if (!f.has("probability") && !f.has("links"))
        f.refuse("probability", "a probability in [0, 1], or links to fail");
      if (auto s = f.integer("seed", 0, INT64_MAX)) fail_seed = static_cast<uint64_t>(*s);
      if (auto k = f.boolean("keep_connected")) keep_connected = *k;
      f.reject_unknown_keys();
    }
    auto spec = r.string("spec");
    r.reject_unknown_keys();
    if (!spec) return;
    generates_ = true;
    topology::Topology topo;
    try {
      topo = topology::from_spec(*spec);
    } catch (const std::invalid_argument& error) {
      r.refuse("spec", fmt::format("a topology ({})", topology::spec_forms()),
               fmt::format("\"{}\" ({})", *spec, error.what()));
      topology_refused_ = true;
      return;
    }
    if (fixed_failures &&
        !fail_named_links(topo, *fixed_failures, keep_connected, *failures_reader)) {
      topology_refused_ = true;
      return;
    }
    if (fail_probability) fail_links(topo, *fail_probability, fail_seed, keep_connected, r);
    add_generated(topo, all, tiers, r);
  }

  // [topology.failures] links = ["L1-S2", "S1:L5-L5:S1", …]: these switch-to-switch links fail
  // before the run (GFC §6.2.2, Fig. 11: a fat-tree with three chosen failures). A link is named
  // by its two switches, or by switch:port at both ends (summary.json's failed_links) where two
  // switches share several links. False, with a problem located at the entry, for a name that
  // is not one link of the network, for a link named twice, and (with keep_connected) for
  // failures that cut a host off another.
  bool fail_named_links(topology::Topology& topo, const toml::array& names, bool keep_connected,
                        TableReader& r) {
    std::vector<topology::SwitchLink> failed;
    bool ok = true;
    for (size_t i = 0; i < names.size(); ++i) {
      const toml::node& node = *names.get(i);
      const std::string key = fmt::format("topology.failures.links[{}]", i);
      const auto* text = node.as_string();
      const std::vector<topology::SwitchLink> found =
          text ? named_links(topo, text->get()) : std::vector<topology::SwitchLink>{};
      if (found.size() != 1) {
        problems_.expected(node.source(), key,
                           found.empty() ? "a switch-to-switch link, \"A-B\" or \"A:port-B:port\""
                                         : "one link (these switches share several: name the "
                                           "ports, \"A:port-B:port\")",
                           config::describe(node));
        ok = false;
      } else if (std::find(failed.begin(), failed.end(), found[0]) != failed.end()) {
        problems_.note(node.source(), key, "names a link named before it");
        ok = false;
      } else {
        failed.push_back(found[0]);
      }
    }
    if (!ok) return false;
    topology::Topology left = topology::without_links(topo, failed);
    if (keep_connected && !topology::host_connectivity(left).all_connected()) {
      r.refuse("links",
               "links whose failure leaves every host reaching every other "
               "(or keep_connected = false)");
      return false;
    }
    for (const topology::SwitchLink& l : failed) out_.failed_links.push_back(link_name(topo, l));
    topo = std::move(left);
    return true;
  }

  // The links `text` names: "A-B" (every link between switches A and B) or "A:pa-B:pb" (that
  // one). Node names may hold '-', so every '-' is tried as the separator.
  static std::vector<topology::SwitchLink> named_links(const topology::Topology& topo,
                                                       std::string_view text) {
    const auto end = [&](std::string_view side) {
      const size_t colon = side.find(':');
      const int sw = topo.switch_index(side.substr(0, colon));
      const int port = sw < 0 || colon == std::string_view::npos
                           ? -1
                           : topo.port_index(sw, side.substr(colon + 1));
      return std::pair{sw, colon == std::string_view::npos || port >= 0 ? port : -2};
    };
    std::vector<topology::SwitchLink> found;
    for (size_t dash = text.find('-'); dash != std::string_view::npos;
         dash = text.find('-', dash + 1)) {
      // Not structured bindings: clang 14 (the fuzz build's) cannot capture those.
      const std::pair<int, int> side_a = end(text.substr(0, dash));
      const std::pair<int, int> side_b = end(text.substr(dash + 1));
      const int a = side_a.first, port_a = side_a.second;
      const int b = side_b.first, port_b = side_b.second;
      if (a < 0 || b < 0 || port_a == -2 || port_b == -2) continue;
      for (const topology::SwitchLink& l : topology::switch_links(topo)) {
        const auto matches = [&](int sa, int pa, int sb, int pb) {
          return sa == a && sb == b && (port_a < 0 || pa == port_a) && (port_b < 0 || pb == port_b);
        };
        if ((matches(l.switch_a, l.port_a, l.switch_b, l.port_b) ||
             matches(l.switch_b, l.port_b, l.switch_a, l.port_a)) &&
            std::find(found.begin(), found.end(), l) == found.end())
          found.push_back(l);
      }
    }
    return found;
  }

  // "S1:L5-L5:S1": as summary.json lists failed links.
  static std::string link_name(const topology::Topology& topo, const topology::SwitchLink& l) {
    return fmt::format("{}:{}-{}:{}", topo.at(l.switch_a).name,
                       topo.at(l.switch_a).ports[l.port_a].name, topo.at(l.switch_b).name,
                       topo.at(l.switch_b).ports[l.port_b].name);
  }

  // GFC §6.2.3, Table 1: each switch-to-switch link fails with `probability` before the run.
  // With keep_connected, draws again (seed + 1, + 2, …) until every host reaches every other,
  // as a network the paper evaluates would; without, a flow between hosts the failures
  // separated is refused (compute_routes).
  void fail_links(topology::Topology& topo, double probability, uint64_t seed, bool keep_connected,
                  TableReader& r) {
    constexpr int kDraws = 1000;
    for (int draw = 0; draw < kDraws; ++draw) {
      const auto failed = topology::fail_links_at_random(topo, probability, seed + draw);
      topology::Topology left = topology::without_links(topo, failed);
      if (keep_connected && !topology::host_connectivity(left).all_connected()) continue;
      for (const topology::SwitchLink& l : failed) out_.failed_links.push_back(link_name(topo, l));
      out_.failure_seed = seed + draw;
      topo = std::move(left);
      return;
    }
    r.refuse("failures", fmt::format("a failure probability that leaves the network connected "
                                     "in one of {} draws (or keep_connected = false)",
                                     kDraws));
  }

  // The generated switches (their connected ports, in order), hosts and links.
  void add_generated(const topology::Topology& topo, const LinkDefaults& all,
                     const std::map<std::string, LinkDefaults, std::less<>>& tiers,
                     TableReader& r) {
    std::vector<std::vector<int>> port_index(topo.switches());  // topology port → ours
    std::vector<size_t> node_of(topo.switches(), SIZE_MAX);     // SIZE_MAX: left out
    for (int s = 0; s < topo.switches(); ++s) {
      const topology::TopologySwitch& sw = topo.at(s);
      NodeSketch sketch{sw.name, false, true, false, sw.tier, nullptr, {}};
      toml::array ports;
      port_index[s].assign(sw.ports.size(), -1);
      for (size_t p = 0; p < sw.ports.size(); ++p) {
        if (sw.ports[p].peer == topology::PeerKind::kNone) continue;  // nothing to link
        port_index[s][p] = static_cast<int>(sketch.ports.size());
        sketch.ports.push_back(sw.ports[p].name);
        ports.push_back(toml::table{{"name", sw.ports[p].name}});
      }
      if (sketch.ports.empty()) {
        // Every link of it failed ([topology.failures]): nothing reaches it, nothing to run.
        r.warn("failures", "failures that leave every switch a link",
               fmt::format("every link of {} failed: it is left out of the network", sw.name));
        left_out_.insert(sw.name);
        continue;
      }
      owned_tables_.push_back(toml::table{{"name", sw.name}, {"ports", std::move(ports)}});
      sketch.table = &owned_tables_.back();
      if (!add_sketch(std::move(sketch), r)) return;
      node_of[s] = sketches_.size() - 1;
    }
    const auto defaults_for = [&](std::string_view tier) {
      const auto found = tiers.find(tier);
      return found == tiers.end() ? all : found->second;
    };
    for (int s = 0; s < topo.switches(); ++s) {
      if (node_of[s] == SIZE_MAX) continue;
      const topology::TopologySwitch& sw = topo.at(s);
      for (size_t p = 0; p < sw.ports.size(); ++p) {
        const topology::TopologyPort& port = sw.ports[p];
        const PortRef here{static_cast<int>(node_of[s]), port_index[s][p]};
        if (port.peer == topology::PeerKind::kHost) {
          owned_tables_.push_back(toml::table{{"name", port.host}});
          if (!add_sketch(
                  NodeSketch{port.host, true, true, false, -1, &owned_tables_.back(), {"nic"}}, r))
            return;
          const LinkDefaults d = defaults_for("hosts");
          generated_links_.push_back(LabLinkSpec{PortRef{static_cast<int>(sketches_.size() - 1), 0},
                                                 here, d.rate_bps, d.delay_ns});
        } else if (port.peer == topology::PeerKind::kSwitch &&
                   std::pair(s, static_cast<int>(p)) <
                       std::pair(port.peer_switch, port.peer_port)) {
          const int low = std::min(sw.tier, topo.at(port.peer_switch).tier);
          const LinkDefaults d = low < 0 ? all : defaults_for(std::to_string(low));
          generated_links_.push_back(
              LabLinkSpec{here,
                          PortRef{static_cast<int>(node_of[port.peer_switch]),
                                  port_index[port.peer_switch][port.peer_port]},
                          d.rate_bps, d.delay_ns});
        }
      }
    }
  }

  // False (with the problem noted) when the name is not a valid node name.
  bool add_sketch(NodeSketch sketch, TableReader& r) {
    if (!valid_node_name(sketch.name)) {
      r.refuse("spec", "a network whose node names have 1 to 12 characters of [A-Za-z0-9_-]",
               fmt::format("\"{}\"", sketch.name));
      topology_refused_ = true;
      return false;
    }
    names_.emplace(sketch.name, sketches_.size());
    sketches_.push_back(std::move(sketch));
    return true;
  }

  void read_deadlock() {
    const toml::table* table = reader_.table("deadlock");
    if (!table) return;
    TableReader r(*table, "deadlock", problems_);
    if (auto d = r.duration_ns("blocked_for", 1000, kMaxDurationNs))
      out_.deadlock.blocked_for_ns = *d;
    if (auto d = r.duration_ns("check_interval", 1000, kMaxDurationNs))
      out_.deadlock.check_interval_ns = *d;
    r.reject_unknown_keys();
  }

  void read_nodes(std::string_view key, bool hosts) {
    const toml::array* array = reader_.array(key);
    if (!array) return;
    for (size_t i = 0; i < array->size(); ++i) {
      const toml::node& node = *array->get(i);
      const std::string path = fmt::format("{}[{}]", key, i);
      const toml::table* table = node.as_table();
      if (!table) {
        problems_.expected(node.source(), path, "a table", config::describe(node));
        continue;
      }
      NodeSketch sketch;
      sketch.host = hosts;
      sketch.table = table;
      sketch.given = table;
      const toml::node* name = table->get("name");
      if (!name || !name->is_string()) {
        problems_.expected(name ? name->source() : table->source(), path + ".name", "a node name",
                           name ? config::describe(*name) : "nothing");
        continue;
      }
      sketch.name = name->as_string()->get();
      if (!valid_node_name(sketch.name)) {
        problems_.expected(name->source(), path + ".name",
                           "1 to 12 characters of [A-Za-z0-9_-] (it prefixes DPDK object names)",
                           config::describe(*name));
        continue;
      }
      if (left_out_.count(sketch.name)) {
        problems_.note(name->source(), path + ".name",
                       fmt::format("\"{}\" names a switch left out of the network: every link of "
                                   "it failed ([topology.failures])",
                                   sketch.name));
        continue;
      }
      if (const auto taken = names_.find(sketch.name); taken != names_.end()) {
        NodeSketch& generated = sketches_[taken->second];
        if (generated.generated && !generated.host && !hosts && !generated.overridden) {
          override_generated(generated, *table, path);
          continue;
        }
        problems_.note(name->source(), path + ".name",
                       fmt::format("\"{}\" names another node already{}", sketch.name,
                                   generated.generated && (hosts || generated.host)
                                       ? " (of [topology]: a [[switches]] entry may override a "
                                         "generated switch, nothing may override a host)"
                                       : ""));
        continue;
      }
      names_.emplace(sketch.name, sketches_.size());
      if (hosts) {
        sketch.ports.push_back("nic");
      } else if (const toml::array* ports = table->get_as<toml::array>("ports")) {
        for (const toml::node& port : *ports)
          if (const auto* t = port.as_table())
            sketch.ports.push_back(t->get_as<std::string>("name")
                                       ? t->get_as<std::string>("name")->get()
                                       : std::string());
      }
      sketches_.push_back(std::move(sketch));
    }
  }

  // A [[switches]] entry naming a generated switch: its keys over the generated ones, its
  // `ports` added after the generated ports (for [[links]] of the scenario's own).
  void override_generated(NodeSketch& sketch, const toml::table& table, const std::string& path) {
    sketch.given = &table;
    sketch.given_port_offset = sketch.ports.size();
    toml::table merged = *sketch.table;
    toml::array* ports = merged.get_as<toml::array>("ports");
    for (const auto& [key, node] : table) {
      if (key.str() != "ports") {
        merged.insert_or_assign(key, node);
        continue;
      }
      const toml::array* extra = node.as_array();
      if (!extra) {
        problems_.expected(node.source(), path + ".ports", "a list of ports to add",
                           config::describe(node));
        continue;
      }
      for (const toml::node& port : *extra) {
        ports->push_back(port);
        const auto* t = port.as_table();
        sketch.ports.push_back(t && t->get_as<std::string>("name")
                                   ? t->get_as<std::string>("name")->get()
                                   : std::string());
      }
    }
    if (const toml::node* tier = table.get("tier"); tier && tier->as_integer())
      sketch.tier = static_cast<int>(tier->as_integer()->get());
    owned_tables_.push_back(std::move(merged));
    sketch.table = &owned_tables_.back();
    sketch.overridden = true;
  }

  // "S1:p2" for a switch port, "H1" for a host.
  std::optional<PortRef> port_ref(TableReader& r, std::string_view key) {
    auto text = r.string(key, true);
    if (!text) return std::nullopt;
    const size_t colon = text->find(':');
    const std::string node_name = text->substr(0, colon);
    const auto found = names_.find(node_name);
    if (found != names_.end()) {
      const NodeSketch& node = sketches_[found->second];
      if (node.host && colon == std::string::npos)
        return PortRef{static_cast<int>(found->second), 0};
      if (!node.host && colon != std::string::npos) {
        const std::string port = text->substr(colon + 1);
        for (size_t p = 0; p < node.ports.size(); ++p)
          if (node.ports[p] == port)
            return PortRef{static_cast<int>(found->second), static_cast<int>(p)};
      }
    }
    r.refuse(key, left_out_.count(node_name)
                      ? "a host name, or switch:port of a switch in the network (every link of "
                        "this one failed before the run: it is left out)"
                      : "a host name, or switch:port with a port in that switch's ports");
    return std::nullopt;
  }

  void read_links() {
    std::map<std::pair<int, int>, std::string> used;        // (node, port) → its link
    std::map<std::string, int, std::less<>> misnamed_ends;  // refused links' ends, by node
    for (const LabLinkSpec& link : generated_links_) {
      for (const PortRef& end : {link.a, link.b})
        used.emplace(std::pair{end.node, end.port}, "a link of [topology]");
      out_.links.push_back(link);
    }
    const toml::array* array = reader_.array("links", !generates_);
    for (size_t i = 0; array && i < array->size(); ++i) {
      const toml::node& node = *array->get(i);
      const std::string path = fmt::format("links[{}]", i);
      const toml::table* table = node.as_table();
      if (!table) {
        problems_.expected(node.source(), path, "a table { a, b, rate, delay }",
                           config::describe(node));
        continue;
      }
      TableReader r(*table, path, problems_);
      LabLinkSpec link;
      link.rate_bps = link_defaults_.rate_bps;
      link.delay_ns = link_defaults_.delay_ns;
      auto a = port_ref(r, "a");
      auto b = port_ref(r, "b");
      if (auto rate = r.rate_bps("rate", 1'000'000, 400'000'000'000)) link.rate_bps = *rate;
      if (auto delay = r.duration_ns("delay", 0, kNsPerSecond)) link.delay_ns = *delay;
      r.reject_unknown_keys();
      if (!a || !b) {
        // Refused: its good end is not also "a port without a link"; its bad end is counted
        // against the node it names (below).
        for (const auto& [end, ref] : {std::pair{"a", a}, std::pair{"b", b}}) {
          if (ref) {
            used.emplace(std::pair{ref->node, ref->port}, path);
          } else if (const auto* text = table->get_as<std::string>(end)) {
            ++misnamed_ends[text->get().substr(0, text->get().find(':'))];
          }
        }
        continue;
      }
      link.a = *a;
      link.b = *b;
      for (std::string_view end : {"a", "b"}) {
        const PortRef ref = end == "a" ? *a : *b;
        if (!used.emplace(std::pair{ref.node, ref.port}, path).second)
          r.refuse(end,
                   fmt::format("a port no other link uses ({} does)", used[{ref.node, ref.port}]));
      }
      out_.links.push_back(link);
    }
    for (size_t n = 0; n < sketches_.size(); ++n) {
      std::vector<size_t> unlinked;
      for (size_t p = 0; p < sketches_[n].ports.size(); ++p)
        if (!used.count({static_cast<int>(n), static_cast<int>(p)})) unlinked.push_back(p);
      // A node with no more ports left unlinked than refused ends name it: those are the ports
      // the ends meant (one line for one bad name). More, and some are unlinked of their own.
      const auto misnamed = misnamed_ends.find(sketches_[n].name);
      if (misnamed != misnamed_ends.end() &&
          unlinked.size() <= static_cast<size_t>(misnamed->second))
        continue;
      for (const size_t p : unlinked)
        problems_.note(sketches_[n].table->source(),
                       sketches_[n].host
                           ? sketches_[n].name
                           : fmt::format("{}:{}", sketches_[n].name, sketches_[n].ports[p]),
                       "a port without a link (every port needs one)");
    }
  }

  std::optional<int> host_named(TableReader& r, std::string_view key, const toml::node& node) {
    const auto* text = node.as_string();
    if (text) {
      const auto found = names_.find(text->get());
      if (found != names_.end() && sketches_[found->second].host)
        return static_cast<int>(found->second);
    }
    problems_.expected(node.source(), r.key_path(key), "the name of a host in [[hosts]]",
                       config::describe(node));
    return std::nullopt;
  }

  // [transport] (lab/flow_transport.h), before the flows that check their windows against it.
  void read_transport() { out_.transport = read_transport_settings(reader_, kMaxDurationNs); }

  void read_flows() {
    const toml::array* array = reader_.array("flows");
    if (!array) return;
    std::mt19937_64 random(out_.seed);
    for (size_t i = 0; i < array->size(); ++i) {
      const toml::node& node = *array->get(i);
      const std::string path = fmt::format("flows[{}]", i);
      const toml::table* table = node.as_table();
      if (!table) {
        problems_.expected(node.source(), path, "a table", config::describe(node));
        continue;
      }
      TableReader r(*table, path, problems_);
      FlowSpec flow;
      const std::string pattern =
          r.choice("pattern", {"constant", "on-off", "incast"}).value_or("constant");
      std::vector<int> sources;
      if (const toml::node* from = r.node("from")) {
        if (const auto* list = from->as_array()) {
          for (const toml::node& item : *list)
            if (auto h = host_named(r, "from", item)) sources.push_back(*h);
        } else if (from->is_string()) {
          if (auto h = host_named(r, "from", *from)) sources.push_back(*h);
        }
      } else {
        problems_.expected(table->source(), path + ".from", "a host or a list of hosts", "nothing");
      }
      if (pattern == "incast" && table->get("from") && !table->get_as<toml::array>("from"))
        r.refuse("from", "a list of at least two hosts for an incast");
      std::optional<int> dst;
      if (const toml::node* to = r.node("to")) {
        dst = host_named(r, "to", *to);
      } else {
        problems_.expected(table->source(), path + ".to", "a host", "nothing");
      }
      read_flow_shape(r, pattern, out_.transport, flow);
      r.reject_unknown_keys();
      if (!dst) continue;
      for (int src : sources) {
        if (src == *dst) {
          r.refuse("to", "a host other than the source");
          continue;
        }
        FlowSpec one = flow;
        one.id = static_cast<int>(out_.flows.size());
        flow_entry_.push_back(where(node) + path);
        one.src = src;
        one.dst = *dst;
        if (out_.start_jitter_ns) {
          const uint64_t jitter = random() % out_.start_jitter_ns;
          one.start_ns += jitter;
          if (one.stop_ns != kNeverTicks) one.stop_ns += jitter;
        }
        out_.flows.push_back(one);
      }
    }
  }

  // The switch's rules from [lab] tagger_rules, as its [tagger] rules.
  void merge_tagger_rules(const std::string& name, toml::table& merged) {
    if (tagger_rules_file_.empty()) return;
    const toml::array* rules = nullptr;
    if (const toml::table* mine = tagger_rules_.get_as<toml::table>(name))
      rules = mine->get_as<toml::array>("rules");
    if (!rules) {
      node_problems_.push_back(
          fmt::format("{}: [{}] rules: expected the rules of switch {}, "
                      "found nothing (regenerate it with tagger-gen)",
                      tagger_rules_file_, name, name));
      return;
    }
    toml::table* tagger = merged.get_as<toml::table>("tagger");
    if (!tagger) {
      merged.insert("tagger", toml::table{});
      tagger = merged.get_as<toml::table>("tagger");
    }
    tagger->insert_or_assign("rules", *rules);
  }

  // Routes every switch to every host over the whole network (generated and the scenario's
  // own nodes and links), as [topology] routing says; the FIB gets them (ECMP groups where
  // several next hops are equally short) below any `routes` a switch gives itself.
  void compute_routes() {
    LabRouting& routing = out_.routing;
    routing.mode = routing_;
    if (routing_ == RoutingMode::kStatic) return;
    topology::Topology& topo = routing.topo;
    routing.topology_switch.assign(sketches_.size(), -1);
    for (size_t n = 0; n < sketches_.size(); ++n) {
      const NodeSketch& sketch = sketches_[n];
      if (sketch.host) continue;
      int tier = sketch.tier;
      if (!sketch.generated)
        if (const auto* t = sketch.table->get_as<int64_t>("tier"))
          tier = static_cast<int>(t->get());
      routing.topology_switch[n] = topo.add_switch(sketch.name, tier);
      for (const std::string& port : sketch.ports) topo.add_port(routing.topology_switch[n], port);
    }
    for (const LabLinkSpec& link : out_.links) {
      const int a = routing.topology_switch[link.a.node];
      const int b = routing.topology_switch[link.b.node];
      if (a >= 0 && b >= 0) {
        topo.link(a, link.a.port, b, link.b.port);
      } else if (a >= 0 || b >= 0) {
        const PortRef sw = a >= 0 ? link.a : link.b;
        const PortRef host = a >= 0 ? link.b : link.a;
        topo.attach_host(routing.topology_switch[sw.node], sketches_[host.node].name, sw.port);
      }
    }
    topo.finish();
    try {
      routing.initial = routing.routes();
    } catch (const std::exception& error) {
      node_problems_.push_back(fmt::format("{}: topology.routing: {}", out_.file, error.what()));
      routing.mode = RoutingMode::kStatic;
      routes_moot_ = true;
      return;
    }
    const topology::HostTable& hosts = routing.initial->hosts();
    for (topology::HostId h = 0; h < hosts.size(); ++h)
      routing.macs.push_back(host_mac(names_.at(hosts.at(h).name)));
    routing.ecmp_seeds = topology::switch_seeds(
        topo.switches(), ecmp_seed_.value_or(static_cast<uint32_t>(out_.seed)));
    // A flow between hosts the network does not join would send into nothing: say so.
    const topology::HostConnectivity reach = topology::host_connectivity(topo);
    for (const FlowSpec& flow : out_.flows) {
      const topology::HostId a = hosts.find(sketches_[flow.src].name);
      const topology::HostId b = hosts.find(sketches_[flow.dst].name);
      if (a < 0 || b < 0 || !reach.connected(a, b)) {
        node_problems_.push_back(
            fmt::format("{}: expected hosts the network joins, found {} and {} unconnected",
                        flow_entry_[flow.id], sketches_[flow.src].name, sketches_[flow.dst].name));
        routes_moot_ = true;
      }
    }
    // A closed loop's later flows may go from any of its hosts to any other outside its rack,
    // so all of them must be joined (its first flows were checked above).
    for (const FlowSpec& flow : out_.flows) {
      if (flow.closed_loop < 0 || flow.loop_host != 0) continue;
      const std::vector<int>& nodes = out_.closed_loops[flow.closed_loop].nodes;
      const topology::HostId first = hosts.find(sketches_[nodes[0]].name);
      for (int node : nodes) {
        const topology::HostId h = hosts.find(sketches_[node].name);
        if (h >= 0 && first >= 0 && reach.connected(first, h)) continue;
        node_problems_.push_back(
            fmt::format("{}: expected hosts the network joins, found {} and {} unconnected",
                        flow_entry_[flow.id], sketches_[nodes[0]].name, sketches_[node].name));
        routes_moot_ = true;
        break;
      }
    }
  }

  // What the destination of a flow over a transport sends back to its source by the same
  // FIBs (HostSink), or null: ACKs where it acknowledges, CNPs under DCQCN.
  const char* frames_sent_back(const FlowSpec& flow) const {
    const bool acks = acknowledged(out_.transport, flow.transport);
    if (flow.transport == FlowTransport::kDcqcn) return acks ? "ACKs and CNPs" : "CNPs";
    return acks ? "ACKs" : nullptr;
  }

  // check_flow_routes' line for frames of `flow` to `target` that reach switch `at` unrouted.
  std::string unrouted_flow_line(int flow, const std::string& target, int at) const {
    return fmt::format(
        "{}: expected a route to {} on every switch its frames reach, found none at {} "
        "(mac_learning = false: they would be flooded to every host; [lab] flood_unrouted = "
        "true if that is meant)",
        flow_entry_[flow], target, sketches_[at].name);
  }

  // "flows[i]" or "workloads[i]": the entry that gave flow `flow`, without its place.
  std::string flow_name(int flow) const {
    const std::string& entry = flow_entry_[flow];
    const size_t colon = entry.rfind(": ");
    return colon == std::string::npos ? entry : entry.substr(colon + 2);
  }

  // The routes from an event on ([[events]]: a fail or restore with reroute recomputes them
  // around the links down then, a `switch` event replaces that switch's own) that leave a
  // switch some flow's frames reach without a route, where it does not learn: the frames
  // would be flooded to every host from then on. Refused, as such routes before the run are
  // (check_flow_routes), unless [lab] flood_unrouted says it is meant. Frames sent into a
  // link that is down are lost there and counted: a walk ends at it (so without reroute the
  // routes stay, and nothing floods). The events are replayed as LabNetwork applies them: in
  // time order, each time's together (no frame moves between them), the routes recomputed at
  // each rerouting event around the links down at that moment. Whether a flow still runs then
  // is not asked.
  void check_event_failures() {
    const LabRouting& routing = out_.routing;
    const bool computed = routing.mode != RoutingMode::kStatic && routing.initial;
    std::vector<size_t> order(out_.events.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return out_.events[a].at_ns < out_.events[b].at_ns;
    });
    std::unordered_map<uint64_t, topology::HostId> host_of_mac;
    for (topology::HostId h = 0; h < static_cast<topology::HostId>(routing.macs.size()); ++h)
      host_of_mac.emplace(routing.macs[h].value, h);
    std::vector<std::vector<config::FibEntry>> static_fib(out_.nodes.size());
    for (size_t n = 0; n < out_.nodes.size(); ++n) static_fib[n] = out_.nodes[n].static_fib;
    const std::vector<std::vector<PortRef>> wired = out_.peers();
    std::vector<std::vector<PortRef>> peers = wired;  // a link that is down leads nowhere
    std::vector<topology::SwitchLink> failed;
    std::optional<topology::RouteTable> rerouted;  // none: the routes before any event
    for (size_t k = 0; k < order.size();) {
      const uint64_t at_ns = out_.events[order[k]].at_ns;
      // The event a refusal names: the time's last that changed routes, else its last that
      // let frames through again (a restore), else its last. A cut without rerouting only
      // ends walks earlier: it cannot be the cause.
      enum Blame { kCannotCause, kRestored, kRoutesChanged };
      size_t blamed = order[k];
      Blame blame = kCannotCause;
      const auto could_cause = [&](Blame b) {
        if (b < blame) return;
        blamed = order[k];
        blame = b;
      };
      for (; k < order.size() && out_.events[order[k]].at_ns == at_ns; ++k) {
        const LabEvent& event = out_.events[order[k]];
        could_cause(kCannotCause);
        if (event.kind == LabEvent::Kind::kRoute) {
          replace_static_routes(static_fib[event.node], event.routes);
          could_cause(kRoutesChanged);
          continue;
        }
        const LabLinkSpec& spec = out_.links[event.link];
        const bool up = event.kind == LabEvent::Kind::kRestoreLink;
        peers[spec.a.node][spec.a.port] = up ? wired[spec.a.node][spec.a.port] : PortRef{};
        peers[spec.b.node][spec.b.port] = up ? wired[spec.b.node][spec.b.port] : PortRef{};
        if (up) could_cause(kRestored);
        if (!computed) continue;  // static routes: nothing to recompute
        const auto link = routing.switch_link(spec.a.node, spec.a.port, spec.b.node, spec.b.port);
        if (!link) continue;  // a host's own link: nothing to route around
        std::erase(failed, *link);
        if (!up) failed.push_back(*link);
        if (event.reroute) {
          rerouted = routing.routes(failed);
          could_cause(kRoutesChanged);
        }
      }
      const topology::RouteTable* table =
          computed ? (rerouted ? &*rerouted : &*routing.initial) : nullptr;
      config::FibEntry computed_entry;
      const auto route = [&](int node, uint64_t mac) -> const config::FibEntry* {
        for (const config::FibEntry& e : static_fib[node])
          if (e.mac.value == mac) return &e;  // its own routes win
        const int sw = table ? routing.topology_switch[node] : -1;
        const auto host = host_of_mac.find(mac);
        if (sw < 0 || host == host_of_mac.end()) return nullptr;
        const topology::PortGroup& group = table->next_ports(sw, host->second);
        if (group.empty()) return nullptr;
        computed_entry = config::FibEntry{wire::MacAddress{mac}, group.front(), {}};
        if (group.size() > 1) computed_entry.group = group;
        return &computed_entry;
      };
      std::unordered_map<int, std::vector<bool>> routed_to;
      bool refused = false;
      walk_flows(peers, true, route, routed_to,
                 [&](int flow, int dst, int at, const std::string& target, bool said) {
                   if (said) return true;
                   refused = true;
                   // Not the events': the routes before them failed this walk the same way.
                   if (at_ns == 0 && pre_run_refusals_.contains({flow, dst, at})) {
                     node_problems_.push_back(unrouted_flow_line(flow, target, at));
                     return out_.flows[flow].closed_loop < 0;
                   }
                   node_problems_.push_back(fmt::format(
                       "{}: expected the routes from here on to take every flow to its "
                       "destination ({}[lab] flood_unrouted = true floods them), found none to "
                       "{} at {} ({})",
                       event_entry_[blamed],
                       blame == kRoutesChanged && out_.events[blamed].kind != LabEvent::Kind::kRoute
                           ? "reroute = false keeps the routes, and the frames are lost at the "
                             "cut link; "
                           : "",
                       target, sketches_[at].name, flow_name(flow)));
                   return false;  // one line for one bad event
                 });
      if (refused) return;
    }
  }

  // [[workloads]] (lab/workload_spec.h): flows drawn from a distribution, appended to
  // [[flows]] before the run.
  void read_workloads() {
    std::vector<std::string> names;
    std::vector<bool> is_host;
    for (const NodeSketch& s : sketches_) {
      names.push_back(s.name);
      is_host.push_back(s.host);
    }
    const HostInfo hosts = host_info_from_links(names, is_host, out_.links);
    const WorkloadFiles files{std::filesystem::path(out_.file).parent_path().string(),
                              FCSWITCH_WORKLOAD_DIR};
    const std::vector<WorkloadSpec> specs =
        lab::read_workloads(reader_, hosts, files, out_.transport);
    if (specs.empty() || !problems_.empty()) return;
    std::vector<size_t> workload_of;  // per generated flow: its [[workloads]] entry
    std::vector<FlowSpec> flows = expand_workloads(specs, hosts, out_.duration_ns, out_.seed,
                                                   &workload_of, &out_.closed_loops);
    for (size_t i = 0; i < flows.size(); ++i) {
      flows[i].id = static_cast<int>(out_.flows.size());
      flow_entry_.push_back(specs[workload_of[i]].where);
      out_.flows.push_back(flows[i]);
    }
  }

  // [[events]]: at `at`, `fail` or `restore` a link (named by a port at either end;
  // `reroute`, default true, recomputes the routes), or give switch `switch` new `routes`.
  void read_events() {
    const toml::array* array = reader_.array("events");
    if (!array) return;
    for (size_t i = 0; i < array->size(); ++i) {
      const toml::node& node = *array->get(i);
      const std::string path = fmt::format("events[{}]", i);
      const toml::table* table = node.as_table();
      if (!table) {
        problems_.expected(node.source(), path, "a table { at, fail | restore | switch }",
                           config::describe(node));
        continue;
      }
      TableReader r(*table, path, problems_);
      LabEvent event;
      event_entry_.push_back(where(node) + path);
      if (auto at = r.duration_ns("at", 0, kMaxDurationNs)) {
        event.at_ns = *at;
        if (out_.duration_ns && *at >= out_.duration_ns)
          r.refuse("at", fmt::format("a time before the end of the run ({} ns)", out_.duration_ns),
                   fmt::format("{} ns", *at));
      } else if (!table->contains("at")) {
        r.refuse("at", "a time (\"2ms\")", "nothing");
      }
      const int actions =
          table->contains("fail") + table->contains("restore") + table->contains("switch");
      if (actions != 1) r.refuse("fail", "exactly one of fail, restore or switch (with routes)");
      for (std::string_view key : {"fail", "restore"}) {
        if (!table->contains(key)) continue;
        event.kind = key == "fail" ? LabEvent::Kind::kFailLink : LabEvent::Kind::kRestoreLink;
        if (auto port = port_ref(r, key)) {
          for (size_t l = 0; l < out_.links.size(); ++l)
            if ((out_.links[l].a.node == port->node && out_.links[l].a.port == port->port) ||
                (out_.links[l].b.node == port->node && out_.links[l].b.port == port->port))
              event.link = static_cast<int>(l);
          if (event.link < 0) r.refuse(key, "a port with a link");
        }
        if (auto reroute = r.boolean("reroute")) event.reroute = *reroute;
      }
      if (table->contains("switch")) {
        event.kind = LabEvent::Kind::kRoute;
        const auto name = r.string("switch");
        const auto found = name ? names_.find(*name) : names_.end();
        if (found == names_.end() || sketches_[found->second].host) {
          r.refuse("switch", name && left_out_.count(*name)
                                 ? "the name of a switch in the network (every link of this one "
                                   "failed before the run: it is left out)"
                                 : "the name of a switch");
        } else {
          event.node = static_cast<int>(found->second);
        }
        event_routes_.push_back(r.table("routes", true));
      } else {
        event_routes_.push_back(nullptr);
      }
      r.reject_unknown_keys();
      out_.events.push_back(std::move(event));
    }
  }

  // An event's `routes` { host = port or [ports] }, read as the switch's [[fib]] is.
  void read_event_routes() {
    for (size_t i = 0; i < out_.events.size(); ++i) {
      LabEvent& event = out_.events[i];
      if (event.kind != LabEvent::Kind::kRoute || !event_routes_[i] || event.node < 0) continue;
      // Read as a switch's [[fib]] port is: a port, or a list of them (ECMP).
      TableReader r(*event_routes_[i], fmt::format("events[{}].routes", i), problems_);
      for (const auto& [key, value] : *event_routes_[i]) {
        const std::string host(key.str());
        const auto found = names_.find(host);
        if (found == names_.end() || !sketches_[found->second].host) {
          r.refuse(host, "a route to a host in [[hosts]]");
          continue;
        }
        config::FibEntry entry{host_mac(found->second), -1, {}};
        if (config::resolve_fib_ports(r, host, config::fib_port_names(r, host),
                                      out_.nodes[event.node].config, entry))
          event.routes.push_back(std::move(entry));
      }
    }
  }

  // Each node's fcswitch config: the shared sections, the node's own keys over them, and
  // what the lab owns.
  // A flow whose frames reach a switch that has no route to the destination and does not
  // learn would be flooded to every host for the whole run (each copy a frame of its own):
  // almost always a missing route, so it is refused unless [lab] flood_unrouted says it is
  // meant. Follows the FIB from the source's switch (every member of an ECMP group), up to the
  // destination, a host, or a switch seen before (a routing loop is a route: Tagger §8.1).
  void check_flow_routes() {
    walk_flows(
        out_.peers(), out_.routing.mode != RoutingMode::kShortest,
        [this](int node, uint64_t mac) { return fib_entry(node, mac); }, routed_to_,
        [this](int flow, int dst, int at, const std::string& target, bool said) {
          pre_run_refusals_.insert({flow, dst, at});
          if (!said) node_problems_.push_back(unrouted_flow_line(flow, target, at));
          return out_.flows[flow].closed_loop < 0;  // one pair of a loop is enough to say
        });
  }

  // Walks each flow's frames from its source by `route(node, mac)` (the entry a switch
  // forwards by, null if none), and with `loops` a closed loop's between any two of its hosts
  // in different racks (its later flows; shortest paths reach every host the network joins,
  // up-down and static routes may not), and what a flow's transport sends back to its source.
  // Calls `unrouted(flow, dst, switch, target, said)` where a switch the frames reach has no
  // route and does not learn (`target`: dst's name, and what goes there if not the flow's own
  // frames; `said`: the flow's frames were refused on their way there, one line for one flow
  // is enough); stops when that returns false. `routed_to` keeps, per destination, the switches
  // earlier walks found routed (many flows share one).
  template <typename Route, typename Unrouted>
  void walk_flows(const std::vector<std::vector<PortRef>>& peers, bool loops, Route route,
                  std::unordered_map<int, std::vector<bool>>& routed_to, Unrouted unrouted) {
    enum Walk { kRouted, kRefused, kStop };
    const auto walk = [&](int src, int dst, int flow, const char* sent_back = nullptr,
                          bool said = false) {
      const int at = unrouted_switch(peers, src, dst, route, routed_to[dst]);
      if (at < 0) return kRouted;
      const std::string& name = sketches_[dst].name;
      const std::string target =
          sent_back ? fmt::format("{} (its transport's {})", name, sent_back) : name;
      return unrouted(flow, dst, at, target, said) ? kRefused : kStop;
    };
    for (const FlowSpec& flow : out_.flows) {
      const Walk there = walk(flow.src, flow.dst, flow.id);
      if (there == kStop) return;
      const char* sent_back = frames_sent_back(flow);
      if (sent_back && walk(flow.dst, flow.src, flow.id, sent_back, there == kRefused) == kStop)
        return;
    }
    if (!loops) return;
    for (const FlowSpec& flow : out_.flows) {
      if (flow.closed_loop < 0 || flow.loop_host != 0) continue;
      const ClosedLoopSpec& loop = out_.closed_loops[flow.closed_loop];
      for (size_t a = 0; a < loop.nodes.size(); ++a)
        for (size_t b = 0; b < loop.nodes.size(); ++b)
          if (loop.racks[a] != loop.racks[b] &&
              walk(loop.nodes[a], loop.nodes[b], flow.id) == kStop)
            return;
    }
  }

  // The walk above for frames from host `src` to host `dst`: the first switch on the way with
  // no route that does not learn, or -1. It ends at the destination, a host, a switch seen
  // before (a routing loop is a route: Tagger §8.1) or one `routed` (per node) says an earlier
  // walk found routed; the switches of a walk that found every route are marked there.
  template <typename Route>
  int unrouted_switch(const std::vector<std::vector<PortRef>>& peers, int src, int dst, Route route,
                      std::vector<bool>& routed) {
    const auto peer = [&](int node, int port) {
      return port < static_cast<int>(peers[node].size()) ? peers[node][port] : PortRef{};
    };
    const uint64_t mac = out_.nodes[dst].mac.value;
    if (routed.empty()) routed.assign(out_.nodes.size(), false);
    std::vector<PortRef> next = {peer(src, 0)};
    std::vector<bool> seen(out_.nodes.size(), false);
    std::vector<int> walked;
    while (!next.empty()) {
      const PortRef at = next.back();
      next.pop_back();
      if (at.node < 0 || out_.nodes[at.node].host || seen[at.node] || routed[at.node]) continue;
      seen[at.node] = true;
      walked.push_back(at.node);
      const config::FibEntry* entry = route(at.node, mac);
      if (!entry) {
        if (out_.nodes[at.node].config.mac_learning) continue;  // it learns the destination
        return at.node;
      }
      if (entry->group.empty()) {
        next.push_back(peer(at.node, entry->port));
      } else {
        for (int port : entry->group) next.push_back(peer(at.node, port));
      }
    }
    for (const int node : walked) routed[node] = true;
    return -1;
  }

  // The first entry for `mac` in the switch's FIB, as a walk of the list finds it; null if none.
  const config::FibEntry* fib_entry(int node, uint64_t mac) {
    if (fib_by_mac_.empty()) fib_by_mac_.resize(out_.nodes.size());
    auto& index = fib_by_mac_[node];
    const std::vector<config::FibEntry>& fib = out_.nodes[node].config.fib;
    if (index.empty())
      for (const config::FibEntry& e : fib) index.emplace(e.mac.value, &e);  // keeps the first
    const auto it = index.find(mac);
    return it == index.end() ? nullptr : it->second;
  }

  void build_node_configs() {
    compute_routes();
    for (size_t n = 0; n < sketches_.size(); ++n) {
      const NodeSketch& sketch = sketches_[n];
      toml::table merged;
      for (std::string_view section : kSharedSections)
        if (const toml::node* shared = root_.get(section)) merged.insert(section, *shared);
      toml::table own = *sketch.table;
      own.erase("name");
      const toml::node* routes = own.get("routes");
      std::optional<toml::table> routes_copy;
      if (routes && routes->is_table()) routes_copy = *routes->as_table();
      if (routes && !routes->is_table()) {
        const toml::node* given = sketch.given ? sketch.given->get("routes") : nullptr;
        node_problems_.push_back(where(given ? *given : *routes) +
                                 fmt::format("{}.routes: expected a table {{ host = \"port\" }}, "
                                             "found {}",
                                             sketch.name, config::describe(*routes)));
      }
      own.erase("routes");
      // Switch tiers are for tagger-gen's Clos scheme; the datapath has no use for them.
      if (const toml::node* tier = own.get("tier"); tier && !sketch.host) {
        if (!tier->as_integer() || tier->as_integer()->get() < 0 || tier->as_integer()->get() > 7)
          node_problems_.push_back(where(*tier) + fmt::format("{}.tier: expected a tier in [0, 7] "
                                                              "(0: ToR), found {}",
                                                              sketch.name,
                                                              config::describe(*tier)));
        own.erase("tier");
      }
      std::optional<std::string> mac_text;
      if (sketch.host) {
        if (const auto* mac = own.get_as<std::string>("mac")) mac_text = mac->get();
        own.erase("mac");
      }
      deep_merge(merged, std::move(own));
      if (!sketch.host) merge_tagger_rules(sketch.name, merged);

      toml::table* switch_section = merged.get_as<toml::table>("switch");
      if (!switch_section) {
        merged.insert("switch", toml::table{});
        switch_section = merged.get_as<toml::table>("switch");
      }
      switch_section->insert_or_assign("name", sketch.name);
      // Frames travel in the hosts' mbufs from ring to ring: a switch's own pool holds only
      // flood copies.
      if (!switch_section->contains("mbufs")) switch_section->insert("mbufs", 1023);
      if (sketch.host) {
        merged.insert_or_assign("ports", toml::array{toml::table{{"name", "nic"}}});
      }
      if (toml::array* ports = merged.get_as<toml::array>("ports")) {
        for (size_t p = 0; p < ports->size(); ++p) {
          toml::table* port = ports->get(p)->as_table();
          if (!port) continue;
          for (std::string_view key : kPortKeysOwnedByLab)
            if (const toml::node* given = port->get(key))
              node_problems_.push_back(
                  where(*given) +
                  fmt::format("{}: ports[{}].{}: set by the lab (its link's FIFO, rate and TX "
                              "ring), found {}",
                              sketch.name, p, key, config::describe(*given)));
          // The port is a FIFO of the lab's link (LinkFifoPortIo); the name says which.
          port->insert_or_assign("device", fmt::format("lab_{}_{}", sketch.name, p));
          port->insert_or_assign("rate", static_cast<int64_t>(link_rate(static_cast<int>(n), p)));
          // The link's TX ring ([lab] tx_ring_frames): at most what TX commits at a time, which
          // buffer-based GFC keeps room for below B_m (PortConfig::committed_frames).
          port->insert_or_assign("tx_descriptors", static_cast<int64_t>(out_.tx_ring_frames));
        }
      }
      size_t fib_from_routes = 0;  // the merged [[fib]]'s first entries: from `routes`
      if (routes_copy) {
        // The copy has no places in the file: a problem is placed at the entry's own key.
        const toml::table* given_routes =
            sketch.given ? sketch.given->get_as<toml::table>("routes") : nullptr;
        toml::array fib;
        for (const auto& [host, port] : *routes_copy) {
          const auto found = names_.find(std::string(host.str()));
          if (found == names_.end() || !sketches_[found->second].host) {
            const auto given =
                given_routes ? given_routes->find(host.str()) : toml::table::const_iterator{};
            const bool placed = given_routes && given != given_routes->cend();
            node_problems_.push_back(
                (placed ? problems_.place(given->first.source()) + ": " : where(port)) +
                fmt::format("{}.routes.{}: expected the name of a host, found a key no host has",
                            sketch.name, host.str()));
            continue;
          }
          toml::table entry;
          entry.insert("mac", host_mac(found->second).to_string());
          entry.insert("port", port);
          fib.push_back(std::move(entry));
        }
        fib_from_routes = fib.size();
        if (toml::array* given = merged.get_as<toml::array>("fib"))
          for (const toml::node& e : *given) fib.push_back(e);
        merged.insert_or_assign("fib", std::move(fib));
      }

      LabNode node;
      node.name = sketch.name;
      node.host = sketch.host;
      try {
        node.config = config::read_switch_config(merged, out_.file);
      } catch (const config::ConfigError& error) {
        for (const std::string& p : error.problems())
          node_config_problems_.add(located(p, sketch, fib_from_routes), sketch.name);
        continue;
      }
      for (const std::string& w : node.config.warnings)
        node_config_warnings_.add(located(w, sketch, fib_from_routes), sketch.name);
      // The lab predicts Pyrrha's onward paths from its routes (lab/lab_path_oracle.h) and
      // knows which ports face hosts: fcswitch's table of them would be ignored.
      if (const auto& pyrrha = node.config.pyrrha;
          pyrrha && (!pyrrha->paths.empty() || !pyrrha->host_ports.empty()))
        node_config_problems_.add(
            located(fmt::format("{}:0:0: pyrrha.{}: expected no table of paths in a lab "
                                "scenario (the lab predicts them from its routes), found one",
                                out_.file, pyrrha->paths.empty() ? "host_ports" : "paths"),
                    sketch, fib_from_routes),
            sketch.name);
      node.static_fib = node.config.fib;  // its own `routes` and [[fib]]: they win
      if (out_.routing.initial && out_.routing.topology_switch[n] >= 0) {
        const int sw = out_.routing.topology_switch[n];
        if (node.config.ecmp_seed == 0) node.config.ecmp_seed = out_.routing.ecmp_seeds[sw];
        const auto routed =
            out_.routing.fib(static_cast<int>(n), *out_.routing.initial, fib_macs(node.static_fib));
        node.config.fib.insert(node.config.fib.end(), routed.begin(), routed.end());
      }
      if (sketch.host) {
        node.mac = host_mac(n);  // the given one if it parses
        const auto parsed = mac_text ? wire::MacAddress::parse(*mac_text) : std::nullopt;
        if (mac_text && (!parsed || parsed->is_multicast()))
          node_problems_.push_back(
              fmt::format("{}: hosts {}: mac: expected a unicast MAC address, found \"{}\"",
                          out_.file, sketch.name, *mac_text));
        node.config.ports[0].mac = node.mac;
      }
      out_.nodes.push_back(std::move(node));
    }
  }

  // A node's config is read from a table the lab merged (the shared sections, the node's
  // entry, its tagger rules), and toml++ does not copy a node's place in the file: a problem
  // there reads "FILE:0:0: key: …". Put back the place the node got the key from, in the
  // order the merge gave it: its tagger rules, its own entry, a --set, a shared section; a key
  // found nowhere (a missing one) is placed at the node's entry.
  std::string located(const std::string& problem, const NodeSketch& sketch,
                      size_t fib_from_routes) const {
    const std::string unplaced = out_.file + ":0:0: ";
    if (problem.rfind(unplaced, 0) != 0) return problem;
    const std::string message = problem.substr(unplaced.size());
    const size_t key_end = message.find(": ");
    if (key_end == std::string::npos) return problem;
    const std::string key = message.substr(0, key_end);
    const auto placed = [&](const toml::node* node,
                            const std::string& file) -> std::optional<std::string> {
      if (!node || !node->source().begin) return std::nullopt;
      return fmt::format("{}: {}", config::ConfigProblems::place(file, node->source()), message);
    };
    if (!sketch.host && !tagger_rules_file_.empty() && key.rfind("tagger.rules", 0) == 0)
      if (auto at =
              placed(tagger_rules_.at_path(sketch.name + key.substr(6)).node(), tagger_rules_file_))
        return *at;
    if (const std::string own = given_key(key, sketch, fib_from_routes);
        sketch.given && !own.empty())
      if (auto at = placed(sketch.given->at_path(own).node(), out_.file)) return *at;
    if (auto at = placed(reader_.raw().at_path(key).node(), out_.file)) return *at;
    const toml::node* entry = sketch.given ? sketch.given : reader_.raw().get("topology");
    if (auto at = placed(entry, out_.file)) return *at;
    return problem;
  }

  // `key` of the merged config as a path in the node's own entry: a generated switch's
  // overriding entry numbers its ports after the generated ones, and the merged [[fib]] lists
  // the entry's `routes` first.
  static std::string given_key(const std::string& key, const NodeSketch& sketch,
                               size_t fib_from_routes) {
    if (auto own = renumbered(key, "ports", sketch.given_port_offset, "")) return *own;
    if (auto own = renumbered(key, "fib", fib_from_routes, "routes")) return *own;
    return key;
  }

  // `array[i]rest` as `array[i − offset]rest`, or `below` for an i under the offset; nothing
  // for a key of another array.
  static std::optional<std::string> renumbered(const std::string& key, std::string_view array,
                                               size_t offset, std::string_view below) {
    if (key.size() <= array.size() || key.compare(0, array.size(), array) != 0 ||
        key[array.size()] != '[')
      return std::nullopt;
    const size_t open = array.size() + 1, close = key.find(']', open);
    size_t index = 0;
    if (close == std::string::npos) return std::nullopt;
    const auto [end, error] = std::from_chars(key.data() + open, key.data() + close, index);
    if (error != std::errc{} || end != key.data() + close) return std::nullopt;
    if (index < offset) return std::string(below);
    return fmt::format("{}[{}]{}", array, index - offset, key.substr(close + 1));
  }

  // "file:line:column: " of `node`, or "--set key=value:1:column: " for a --set's value.
  std::string where(const toml::node& node) const { return problems_.place(node.source()) + ": "; }

  uint64_t link_rate(int node, size_t port) const {
    for (const LabLinkSpec& link : out_.links)
      if ((link.a.node == node && link.a.port == static_cast<int>(port)) ||
          (link.b.node == node && link.b.port == static_cast<int>(port)))
        return link.rate_bps;
    return 10'000'000'000;
  }

  wire::MacAddress host_mac(size_t node) const {
    // Locally administered, unicast: 02:00:00:00:NN:NN by node index (+1).
    if (const auto* given = sketches_[node].table->get_as<std::string>("mac"))
      if (auto mac = wire::MacAddress::parse(given->get())) return *mac;
    return wire::MacAddress{0x02'00'00'00'00'00ull + node + 1};
  }

  const toml::table& root_;
  LabScenario& out_;
  ConfigProblems problems_;
  TableReader reader_;
  std::vector<NodeSketch> sketches_;
  std::map<std::string, size_t> names_;
  std::vector<std::string> node_problems_;
  // The same problem in many nodes' configs (a top-level section every node shares) is one
  // line naming the nodes, not one line per node.
  class PerNodeLines {
   public:
    void add(const std::string& line, const std::string& node) {
      for (auto& [text, nodes] : lines_)
        if (text == line) {
          if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(node);
          return;
        }
      lines_.push_back({line, {node}});
    }
    std::vector<std::string> lines(size_t node_count) const {
      std::vector<std::string> out;
      for (const auto& [text, nodes] : lines_)
        out.push_back(nodes.size() == node_count && node_count > 1
                          ? fmt::format("{} (every node)", text)
                          : fmt::format("{} ({})", text, fmt::join(nodes, ", ")));
      return out;
    }

   private:
    std::vector<std::pair<std::string, std::vector<std::string>>> lines_;
  };
  PerNodeLines node_config_problems_;
  PerNodeLines node_config_warnings_;
  toml::table tagger_rules_;  // [lab] tagger_rules, parsed
  std::string tagger_rules_file_;
  // [topology]
  RoutingMode routing_ = RoutingMode::kStatic;
  bool generates_ = false;         // [topology] has a spec (its links may replace [[links]])
  bool topology_refused_ = false;  // [topology] has a spec, and the network was not made
  std::set<std::string, std::less<>> left_out_;  // generated switches every link of which failed
  // compute_routes refused the routing, or found a flow between hosts the network does not
  // join: the route walks would only say so again.
  bool routes_moot_ = false;
  LinkDefaults link_defaults_;            // [topology] rate and delay: every link's, unless its own
  std::optional<uint32_t> ecmp_seed_;     // default: from [lab] seed
  std::deque<toml::table> owned_tables_;  // generated nodes' tables (sketches point here)
  std::vector<LabLinkSpec> generated_links_;
  std::vector<const toml::table*> event_routes_;  // per event: its `routes`, if a route event
  std::vector<std::string> event_entry_;  // per event: "file:line:col: events[i]" of its entry
  std::vector<std::string> flow_entry_;   // per flow: "file:line:col: flows[i]" of its entry
  // check_route's: per destination host, the switches from which every walk was found routed
  // to it (a later walk stops there: many flows share a destination); per switch, its FIB by
  // MAC (a k = 16 fat-tree's switches have 1 024 routes, and a long workload 100 000 flows).
  std::unordered_map<int, std::vector<bool>> routed_to_;
  // check_flow_routes' refusals, as (flow, destination, switch): where the routes before any
  // event fail a walk (events at time 0 may mend them).
  std::set<std::tuple<int, int, int>> pre_run_refusals_;
  std::vector<std::unordered_map<uint64_t, const config::FibEntry*>> fib_by_mac_;
  bool flood_unrouted_ = false;  // [lab] flood_unrouted
};

}  // namespace

std::unordered_set<uint64_t> fib_macs(const std::vector<config::FibEntry>& entries) {
  std::unordered_set<uint64_t> macs;
  for (const config::FibEntry& e : entries) macs.insert(e.mac.value);
  return macs;
}

void replace_static_routes(std::vector<config::FibEntry>& mine,
                           const std::vector<config::FibEntry>& routes) {
  const auto replaced = fib_macs(routes);
  std::erase_if(mine, [&](const config::FibEntry& e) { return replaced.count(e.mac.value); });
  mine.insert(mine.end(), routes.begin(), routes.end());
}

std::vector<std::vector<PortRef>> LabScenario::peers() const {
  std::vector<std::vector<PortRef>> out(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) out[n].resize(nodes[n].config.ports.size());
  for (const LabLinkSpec& link : links) {
    out[link.a.node][link.a.port] = link.b;
    out[link.b.node][link.b.port] = link.a;
  }
  return out;
}

std::string LabScenario::port_name(PortRef port) const {
  const LabNode& node = nodes[port.node];
  if (node.host) return node.name;
  return fmt::format("{}:{}", node.name, node.config.ports[port.port].name);
}

LabScenario parse_lab_scenario(std::string_view text, const std::string& file,
                               const std::vector<std::string>& overrides) {
  toml::table root = config::parse_toml_text(text, file);
  std::vector<std::string> problems;
  for (const std::string& assignment : overrides) apply_override(root, assignment, problems);
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

LabScenario load_lab_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  return parse_lab_scenario(config::read_text_file(path), path, overrides);
}

}  // namespace fcswitch::lab

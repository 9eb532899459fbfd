// [topology]: a generated network with its link defaults per tier, the links failed before
// the run (named or drawn), and the generated switches, hosts and links as node sketches.
#include "scenario/scenario_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config_problems.h"
#include "config/table_reader.h"
#include "scenario/route_memory.h"
#include "topology/host_connectivity.h"
#include "topology/link_failures.h"
#include "topology/topology_spec.h"

namespace fcswitch::lab {

using config::TableReader;

// [topology]: a generated network (lib/topology's generators), link defaults with per-tier
// overrides, and how every switch routes to every host.
void ScenarioReader::read_topology() {
  const toml::table* table = reader_.table("topology");
  if (!table) return;
  TableReader r(*table, "topology", problems_);
  if (auto routing = r.choice("routing", {"static", "shortest", "updown"}))
    routing_ = *routing == "shortest" ? RoutingMode::kShortest
               : *routing == "updown" ? RoutingMode::kUpdown
                                      : RoutingMode::kStatic;
  else if (table->contains("spec"))
    routing_ = RoutingMode::kShortest;
  if (auto seed = r.integer("ecmp_seed", 0, UINT32_MAX)) ecmp_seed_ = static_cast<uint32_t>(*seed);
  ScenarioLinkDefaults all;
  if (auto rate = r.rate_bps("rate", 1'000'000, 400'000'000'000)) all.rate_bps = *rate;
  if (auto delay = r.duration_ns("delay", 0, kNsPerSecond)) all.delay_ns = *delay;
  link_defaults_ = all;
  // [topology.tier.N]: links from tier N up to N + 1; [topology.tier.hosts]: host links.
  std::map<std::string, ScenarioLinkDefaults, std::less<>> tiers;
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
      ScenarioLinkDefaults d = all;
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
  // Its routes, if they cannot fit, refused now rather than after the network is laid out
  // (fat-tree:64: a second here against 24 s there; compute_routes asks again of the whole
  // network, the scenario's own nodes included).
  if (routing_ != RoutingMode::kStatic) {
    if (const auto problem =
            route_memory_problem(topo.switches(), topo.host_ports(), available_memory_bytes())) {
      r.refuse("spec", "a network whose routes fit in half the memory available",
               fmt::format("\"{}\" ({})", *spec, *problem));
      topology_refused_ = true;
      return;
    }
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
bool ScenarioReader::fail_named_links(topology::Topology& topo, const toml::array& names,
                                      bool keep_connected, TableReader& r) {
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
std::vector<topology::SwitchLink> ScenarioReader::named_links(const topology::Topology& topo,
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
std::string ScenarioReader::link_name(const topology::Topology& topo,
                                      const topology::SwitchLink& l) {
  return fmt::format("{}:{}-{}:{}", topo.at(l.switch_a).name,
                     topo.at(l.switch_a).ports[l.port_a].name, topo.at(l.switch_b).name,
                     topo.at(l.switch_b).ports[l.port_b].name);
}

// GFC §6.2.3, Table 1: each switch-to-switch link fails with `probability` before the run.
// With keep_connected, draws again (seed + 1, + 2, …) until every host reaches every other,
// as a network the paper evaluates would; without, a flow between hosts the failures
// separated is refused (compute_routes).
void ScenarioReader::fail_links(topology::Topology& topo, double probability, uint64_t seed,
                                bool keep_connected, TableReader& r) {
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
void ScenarioReader::add_generated(
    const topology::Topology& topo, const ScenarioLinkDefaults& all,
    const std::map<std::string, ScenarioLinkDefaults, std::less<>>& tiers, TableReader& r) {
  std::vector<std::vector<int>> port_index(topo.switches());  // topology port → ours
  std::vector<size_t> node_of(topo.switches(), SIZE_MAX);     // SIZE_MAX: left out
  for (int s = 0; s < topo.switches(); ++s) {
    const topology::TopologySwitch& sw = topo.at(s);
    ScenarioNodeSketch sketch{sw.name, false, true, false, sw.tier, nullptr, {}};
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
                ScenarioNodeSketch{
                    port.host, true, true, false, -1, &owned_tables_.back(), {"nic"}},
                r))
          return;
        const ScenarioLinkDefaults d = defaults_for("hosts");
        generated_links_.push_back(LabLinkSpec{PortRef{static_cast<int>(sketches_.size() - 1), 0},
                                               here, d.rate_bps, d.delay_ns});
      } else if (port.peer == topology::PeerKind::kSwitch &&
                 std::pair(s, static_cast<int>(p)) < std::pair(port.peer_switch, port.peer_port)) {
        const int low = std::min(sw.tier, topo.at(port.peer_switch).tier);
        const ScenarioLinkDefaults d = low < 0 ? all : defaults_for(std::to_string(low));
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
bool ScenarioReader::add_sketch(ScenarioNodeSketch sketch, TableReader& r) {
  if (!valid_scenario_node_name(sketch.name)) {
    r.refuse("spec", "a network whose node names have 1 to 12 characters of [A-Za-z0-9_-]",
             fmt::format("\"{}\"", sketch.name));
    topology_refused_ = true;
    return false;
  }
  names_.emplace(sketch.name, sketches_.size());
  sketches_.push_back(std::move(sketch));
  return true;
}

}  // namespace fcswitch::lab

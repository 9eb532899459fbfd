#pragma once
// Internal to lib/scenario: only its .cc files include this header. ScenarioReader reads one
// scenario's TOML (the --set overrides merged in) into a LabScenario; its member functions are
// defined in the files of their concept: scenario_reader.cc ([lab], [deadlock], the order of
// it all), scenario_topology.cc, scenario_nodes.cc, scenario_flows.cc, scenario_events.cc,
// scenario_routes.cc (with scenario_route_walk.h) and scenario_node_configs.cc. The helpers
// here are named for the scenario, as they share the namespace fcswitch::lab with the lab.

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "config/config_problems.h"
#include "config/plain_name.h"
#include "config/table_reader.h"
#include "scenario/flow_shape_reader.h"
#include "scenario/lab_scenario.h"
#include "topology/link_failures.h"
#include "topology/topology.h"

namespace fcswitch::lab {

// The fcswitch sections every node starts from (the keys of a port the lab fills in itself:
// scenario_node_configs.cc).
inline constexpr std::string_view kScenarioSharedSections[] = {
    "switch", "classify", "buffer", "flow_control", "tagger", "pabo", "pyrrha", "ecn"};
inline constexpr uint64_t kScenarioMaxDurationNs = kMaxFlowDurationNs;

// What the lab knows of a node before its config is read: enough to resolve links.
struct ScenarioNodeSketch {
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
  std::vector<size_t> duplicate_ports{};  // indices of ports whose name an earlier one has
};

struct ScenarioLinkDefaults {
  uint64_t rate_bps = 10'000'000'000;
  uint64_t delay_ns = 0;
};

// A node's name prefixes its DPDK objects, as a switch's does.
inline bool valid_scenario_node_name(std::string_view name) {
  return config::is_plain_name(name, 12);
}

class ScenarioReader {
 public:
  ScenarioReader(const toml::table& root, LabScenario& out);

  void read();

 private:
  // scenario_reader.cc: [lab] (with its tagger rules file) and [deadlock].
  void read_lab();
  void read_tagger_rules(config::TableReader& r, const std::string& file);
  void read_deadlock();

  // scenario_topology.cc: [topology], its failures and the nodes and links it generates.
  void read_topology();
  bool fail_named_links(topology::Topology& topo, const toml::array& names, bool keep_connected,
                        config::TableReader& r);
  static std::vector<topology::SwitchLink> named_links(const topology::Topology& topo,
                                                       std::string_view text);
  static std::string link_name(const topology::Topology& topo, const topology::SwitchLink& l);
  void fail_links(topology::Topology& topo, double probability, uint64_t seed, bool keep_connected,
                  config::TableReader& r);
  void add_generated(const topology::Topology& topo, const ScenarioLinkDefaults& all,
                     const std::map<std::string, ScenarioLinkDefaults, std::less<>>& tiers,
                     config::TableReader& r);
  bool add_sketch(ScenarioNodeSketch sketch, config::TableReader& r);

  // scenario_nodes.cc: [[hosts]], [[switches]], [[links]] and the ports they name.
  void read_nodes(std::string_view key, bool hosts);
  void add_port_name(ScenarioNodeSketch& sketch, const toml::node& port, const std::string& path);
  void override_generated(ScenarioNodeSketch& sketch, const toml::table& table,
                          const std::string& path);
  std::optional<PortRef> port_ref(config::TableReader& r, std::string_view key);
  void read_links();

  // scenario_flows.cc: [transport], [[flows]], [[workloads]].
  std::optional<int> host_named(config::TableReader& r, std::string_view key,
                                const toml::node& node);
  void read_transport();
  void read_flows();
  void read_workloads();

  // scenario_events.cc: [[events]], their routes, and the routes they leave.
  void read_events();
  void read_event_routes();
  void check_event_failures();

  // scenario_routes.cc: the routes computed, and the walks that check every flow has one.
  void compute_routes();
  const char* frames_sent_back(const FlowSpec& flow) const;
  std::string unrouted_flow_line(int flow, const std::string& target, int at) const;
  std::string flow_name(int flow) const;
  void check_flow_routes();
  // Defined in scenario_route_walk.h (scenario_routes.cc and scenario_events.cc walk).
  template <typename Route, typename Unrouted>
  void walk_flows(const std::vector<std::vector<PortRef>>& peers, bool loops, Route route,
                  std::unordered_map<int, std::vector<bool>>& routed_to, Unrouted unrouted);
  template <typename Route>
  int unrouted_switch(const std::vector<std::vector<PortRef>>& peers, int src, int dst, Route route,
                      std::vector<bool>& routed);
  const config::FibEntry* fib_entry(int node, uint64_t mac);

  // scenario_node_configs.cc: each node's fcswitch config, and what it takes from the lab.
  void merge_tagger_rules(const std::string& name, toml::table& merged);
  void build_node_configs();
  std::string located(const std::string& problem, const ScenarioNodeSketch& sketch,
                      size_t fib_from_routes) const;
  static std::string given_key(const std::string& key, const ScenarioNodeSketch& sketch,
                               size_t fib_from_routes);
  static std::optional<std::string> renumbered(const std::string& key, std::string_view array,
                                               size_t offset, std::string_view below);
  uint64_t link_rate(int node, size_t port) const;
  wire::MacAddress host_mac(size_t node) const;

  // "file:line:column: " of `node`, or "--set key=value:1:column: " for a --set's value.
  std::string where(const toml::node& node) const { return problems_.place(node.source()) + ": "; }

  const toml::table& root_;
  LabScenario& out_;
  config::ConfigProblems problems_;
  config::TableReader reader_;
  std::vector<ScenarioNodeSketch> sketches_;
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
  std::vector<std::string> route_warnings_;  // compute_routes: hosts the network cuts off
  toml::table tagger_rules_;                 // [lab] tagger_rules, parsed
  std::string tagger_rules_file_;
  // [topology]
  RoutingMode routing_ = RoutingMode::kStatic;
  bool generates_ = false;         // [topology] has a spec (its links may replace [[links]])
  bool topology_refused_ = false;  // [topology] has a spec, and the network was not made
  std::set<std::string, std::less<>> left_out_;  // generated switches every link of which failed
  // compute_routes refused the routing, or found a flow between hosts the network does not
  // join: the route walks would only say so again.
  bool routes_moot_ = false;
  ScenarioLinkDefaults link_defaults_;    // [topology] rate and delay: every link's, unless its own
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

}  // namespace fcswitch::lab

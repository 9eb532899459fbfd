// The routes [topology] routing computes, and the walks refusing a flow whose frames (or what
// its transport sends back) would reach a switch with no route to their destination.
#include "scenario/scenario_reader.h"

#include <fmt/format.h>

#include <exception>
#include <string>
#include <vector>

#include "scenario/route_memory.h"
#include "scenario/scenario_route_walk.h"
#include "topology/flow_hash.h"
#include "topology/host_connectivity.h"
#include "topology/host_table.h"

namespace fcswitch::lab {

// Routes every switch to every host over the whole network (generated and the scenario's
// own nodes and links), as [topology] routing says; the FIB gets them (ECMP groups where
// several next hops are equally short) below any `routes` a switch gives itself.
void ScenarioReader::compute_routes() {
  LabRouting& routing = out_.routing;
  routing.mode = routing_;
  if (routing_ == RoutingMode::kStatic) return;
  topology::Topology& topo = routing.topo;
  routing.topology_switch.assign(sketches_.size(), -1);
  for (size_t n = 0; n < sketches_.size(); ++n) {
    const ScenarioNodeSketch& sketch = sketches_[n];
    if (sketch.host) continue;
    int tier = sketch.tier;
    if (!sketch.generated)
      if (const auto* t = sketch.table->get_as<int64_t>("tier")) tier = static_cast<int>(t->get());
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
  if (const auto problem =
          route_memory_problem(topo.switches(), topo.host_ports(), available_memory_bytes())) {
    node_problems_.push_back(fmt::format(
        "{}: topology.routing: expected routes that fit in half the memory available, found {}",
        out_.file, *problem));
    routing.mode = RoutingMode::kStatic;
    routes_moot_ = true;
    return;
  }
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
  // Hosts cut off from the rest (a sparse Jellyfish, a failure draw kept as drawn): the run may
  // go ahead, but not without saying so (their flows are refused below).
  if (!reach.all_connected()) {
    std::string names;
    for (size_t i = 0; i < reach.cut_off.size() && i < 5; ++i)
      names += (i ? ", " : "") + hosts.at(reach.cut_off[i]).name;
    if (reach.cut_off.size() > 5) names += fmt::format(" and {} more", reach.cut_off.size() - 5);
    route_warnings_.push_back(fmt::format(
        "{}: topology: {} of {} hosts cannot reach the part of the network holding the most "
        "hosts ({}); {} host pairs in all cannot reach each other",
        out_.file, reach.cut_off.size(), hosts.size(), names, reach.disconnected_pairs));
  }
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
const char* ScenarioReader::frames_sent_back(const FlowSpec& flow) const {
  const bool acks = acknowledged(out_.transport, flow.transport);
  if (flow.transport == FlowTransport::kDcqcn) return acks ? "ACKs and CNPs" : "CNPs";
  return acks ? "ACKs" : nullptr;
}

// check_flow_routes' line for frames of `flow` to `target` that reach switch `at` unrouted.
std::string ScenarioReader::unrouted_flow_line(int flow, const std::string& target, int at) const {
  return fmt::format(
      "{}: expected a route to {} on every switch its frames reach, found none at {} "
      "(mac_learning = false: they would be flooded to every host; [lab] flood_unrouted = "
      "true if that is meant)",
      flow_entry_[flow], target, sketches_[at].name);
}

// "flows[i]" or "workloads[i]": the entry that gave flow `flow`, without its place.
std::string ScenarioReader::flow_name(int flow) const {
  const std::string& entry = flow_entry_[flow];
  const size_t colon = entry.rfind(": ");
  return colon == std::string::npos ? entry : entry.substr(colon + 2);
}

// A flow whose frames reach a switch that has no route to the destination and does not
// learn would be flooded to every host for the whole run (each copy a frame of its own):
// almost always a missing route, so it is refused unless [lab] flood_unrouted says it is
// meant. Follows the FIB from the source's switch (every member of an ECMP group), up to the
// destination, a host, or a switch seen before (a routing loop is a route: Tagger §8.1).
void ScenarioReader::check_flow_routes() {
  walk_flows(
      out_.peers(), out_.routing.mode != RoutingMode::kShortest,
      [this](int node, uint64_t mac) { return fib_entry(node, mac); }, routed_to_,
      [this](int flow, int dst, int at, const std::string& target, bool said) {
        pre_run_refusals_.insert({flow, dst, at});
        if (!said) node_problems_.push_back(unrouted_flow_line(flow, target, at));
        return out_.flows[flow].closed_loop < 0;  // one pair of a loop is enough to say
      });
}

// The first entry for `mac` in the switch's FIB, as a walk of the list finds it; null if none.
const config::FibEntry* ScenarioReader::fib_entry(int node, uint64_t mac) {
  if (fib_by_mac_.empty()) fib_by_mac_.resize(out_.nodes.size());
  auto& index = fib_by_mac_[node];
  const std::vector<config::FibEntry>& fib = out_.nodes[node].config.fib;
  if (index.empty())
    for (const config::FibEntry& e : fib) index.emplace(e.mac.value, &e);  // keeps the first
  const auto it = index.find(mac);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace fcswitch::lab

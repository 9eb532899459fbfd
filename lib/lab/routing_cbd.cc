#include "lab/routing_cbd.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <unordered_map>

#include "topology/buffer_dependency.h"

namespace fcswitch::lab {

namespace {

// The switches' own routes (`routes`, [[fib]]) laid over the computed ones, as their FIBs have
// them: the GFC case study's tie-breaks decide which cycle forms.
topology::RouteTable with_static_routes(const LabScenario& scenario) {
  const LabRouting& routing = scenario.routing;
  topology::RouteTable routes = *routing.initial;
  std::unordered_map<uint64_t, topology::HostId> host_of_mac;
  for (size_t h = 0; h < routing.macs.size(); ++h)
    host_of_mac[routing.macs[h].value] = static_cast<topology::HostId>(h);
  for (size_t n = 0; n < scenario.nodes.size(); ++n) {
    const int sw = routing.topology_switch[n];
    if (sw < 0) continue;
    for (const config::FibEntry& entry : scenario.nodes[n].static_fib) {
      const auto host = host_of_mac.find(entry.mac.value);
      if (host == host_of_mac.end()) continue;  // not a routed host: no flow goes there
      routes.set(sw, host->second,
                 entry.group.empty() ? topology::PortGroup{entry.port} : entry.group);
    }
  }
  return routes;
}

std::string link_name(const topology::Topology& topo, topology::EndpointId ingress) {
  const int sw = topo.sender_switch(ingress);
  return topo.at(sw).name + ":" + topo.at(sw).ports[topo.sender_port(ingress)].name;
}

}  // namespace

std::optional<RoutingCbd> routing_cbd(const LabScenario& scenario) {
  const LabRouting& routing = scenario.routing;
  if (routing.mode == RoutingMode::kStatic || !routing.initial) return std::nullopt;
  const topology::RouteTable routes = with_static_routes(scenario);
  const std::vector<topology::HostPair> pairs = topology::pairs_across_racks(routes.hosts());
  const topology::BufferDependencyGraph graph(routing.topo, routes, pairs);
  RoutingCbd out;
  out.present = graph.has_cycle();
  out.edges = graph.edges();
  for (topology::EndpointId e : graph.example_cycle())
    out.cycle.push_back(link_name(routing.topo, e));
  for (topology::EndpointId e : graph.cyclic())
    out.cyclic_links.push_back(link_name(routing.topo, e));
  std::sort(out.cyclic_links.begin(), out.cyclic_links.end());
  return out;
}

}  // namespace fcswitch::lab

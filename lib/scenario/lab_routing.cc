#include "scenario/lab_routing.h"

#include <utility>

#include "topology/shortest_routes.h"
#include "topology/updown_routes.h"

namespace fcswitch::lab {

topology::RouteTable LabRouting::routes(std::span<const topology::SwitchLink> failed) const {
  const auto route = [&](const topology::Topology& network) {
    return mode == RoutingMode::kUpdown ? topology::updown_routes(network)
                                        : topology::shortest_routes(network);
  };
  return failed.empty() ? route(topo) : route(topology::without_links(topo, failed));
}

std::optional<topology::SwitchLink> LabRouting::switch_link(int node_a, int port_a, int node_b,
                                                            int port_b) const {
  const int a = topology_switch[node_a], b = topology_switch[node_b];
  if (a < 0 || b < 0) return std::nullopt;
  if (std::pair(b, port_b) < std::pair(a, port_a))
    return topology::SwitchLink{b, port_b, a, port_a};
  return topology::SwitchLink{a, port_a, b, port_b};
}

std::vector<config::FibEntry> LabRouting::fib(
    int node, const topology::RouteTable& table,
    const std::unordered_set<uint64_t>& static_macs) const {
  std::vector<config::FibEntry> entries;
  const int sw = topology_switch[node];
  if (sw < 0) return entries;
  for (topology::HostId h = 0; h < table.hosts().size(); ++h) {
    const topology::PortGroup& group = table.next_ports(sw, h);
    if (group.empty() || static_macs.count(macs[h].value)) continue;
    config::FibEntry entry{macs[h], group.front(), {}};
    if (group.size() > 1) entry.group = group;
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace fcswitch::lab

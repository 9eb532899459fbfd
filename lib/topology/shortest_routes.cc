#include "topology/shortest_routes.h"

#include "topology/switch_hops.h"

#include <vector>

namespace fcswitch::topology {

namespace {

constexpr int kUnreachedHops = -1;

}  // namespace

RouteTable shortest_routes(const Topology& topo) {
  RouteTable routes(topo.switches(), HostTable(topo));
  const HostTable& hosts = routes.hosts();
  // Hosts on one switch share every switch's group but their own switch's: one BFS each.
  std::vector<std::vector<int>> hops_by_switch(topo.switches());
  for (HostId h = 0; h < hosts.size(); ++h) {
    const int target = hosts.at(h).sw;
    if (hops_by_switch[target].empty())
      hops_by_switch[target] = hops_to(topo, target, kUnreachedHops, [](int, int) { return true; });
    const std::vector<int>& hops = hops_by_switch[target];
    for (int sw = 0; sw < topo.switches(); ++sw) {
      if (sw == target) {
        routes.set(sw, h, {hosts.at(h).port});
        continue;
      }
      if (hops[sw] == kUnreachedHops) continue;
      PortGroup group;
      const auto& ports = topo.at(sw).ports;
      for (int port = 0; port < static_cast<int>(ports.size()); ++port)
        if (ports[port].peer == PeerKind::kSwitch && hops[ports[port].peer_switch] == hops[sw] - 1)
          group.push_back(port);
      routes.set(sw, h, std::move(group));
    }
  }
  return routes;
}

}  // namespace fcswitch::topology

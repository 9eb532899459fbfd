#include "topology/updown_routes.h"

#include "topology/switch_hops.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace fcswitch::topology {

namespace {

constexpr int kUnreachedRank = std::numeric_limits<int>::max();

bool higher(const Topology& topo, int a, int b) {
  return topo.at(a).tier > topo.at(b).tier;
}

}  // namespace

RouteTable updown_routes(const Topology& topo) {
  for (const TopologySwitch& s : topo.all())
    if (s.tier < 0)
      throw std::invalid_argument("updown routing needs a tier on every switch; " + s.name +
                                  " has none");
  // Highest tier first, so a switch's climb is known from its higher neighbours'.
  std::vector<int> by_tier(topo.switches());
  std::iota(by_tier.begin(), by_tier.end(), 0);
  std::stable_sort(by_tier.begin(), by_tier.end(),
                   [&](int a, int b) { return topo.at(a).tier > topo.at(b).tier; });

  RouteTable routes(topo.switches(), HostTable(topo));
  const HostTable& hosts = routes.hosts();
  for (HostId h = 0; h < hosts.size(); ++h) {
    const int target = hosts.at(h).sw;
    // Hops down to `target`, a lower tier at each hop: a BFS from the target that climbs.
    const std::vector<int> down =
        hops_to(topo, target, kUnreachedRank,
                [&](int nearer, int farther) { return higher(topo, farther, nearer); });
    // total[s]: hops of the shortest up-down path from s (descend at once when possible).
    std::vector<int> total(down);
    for (int sw : by_tier) {
      if (total[sw] != kUnreachedRank) continue;
      for (const TopologyPort& p : topo.at(sw).ports)
        if (p.peer == PeerKind::kSwitch && higher(topo, p.peer_switch, sw) &&
            total[p.peer_switch] != kUnreachedRank)
          total[sw] = std::min(total[sw], total[p.peer_switch] + 1);
    }
    for (int sw = 0; sw < topo.switches(); ++sw) {
      if (sw == target) {
        routes.set(sw, h, {hosts.at(h).port});
        continue;
      }
      if (total[sw] == kUnreachedRank) continue;
      const bool descending = down[sw] != kUnreachedRank;
      const std::vector<int>& hops = descending ? down : total;
      PortGroup group;
      const auto& ports = topo.at(sw).ports;
      for (int port = 0; port < static_cast<int>(ports.size()); ++port) {
        const TopologyPort& p = ports[port];
        if (p.peer != PeerKind::kSwitch) continue;
        const bool toward =
            descending ? higher(topo, sw, p.peer_switch) : higher(topo, p.peer_switch, sw);
        if (toward && hops[p.peer_switch] == hops[sw] - 1) group.push_back(port);
      }
      routes.set(sw, h, std::move(group));
    }
  }
  return routes;
}

}  // namespace fcswitch::topology

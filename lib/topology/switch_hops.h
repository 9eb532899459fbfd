#pragma once
// Hops from every switch to one switch: a breadth-first search from `target` over the
// switch-to-switch links `may_step(nearer, farther)` allows (every link for shortest paths;
// only climbing ones for up-down's descent). The one BFS both routings walk.

#include <vector>

#include "topology/topology.h"

namespace fcswitch::topology {

template <typename MayStep>
std::vector<int> hops_to(const Topology& topo, int target, int unreached, MayStep may_step) {
  std::vector<int> hops(topo.switches(), unreached);
  std::vector<int> frontier{target};
  hops[target] = 0;
  for (size_t next = 0; next < frontier.size(); ++next) {
    const int sw = frontier[next];
    for (const TopologyPort& p : topo.at(sw).ports) {
      if (p.peer != PeerKind::kSwitch || hops[p.peer_switch] != unreached ||
          !may_step(sw, p.peer_switch))
        continue;
      hops[p.peer_switch] = hops[sw] + 1;
      frontier.push_back(p.peer_switch);
    }
  }
  return hops;
}

}  // namespace fcswitch::topology

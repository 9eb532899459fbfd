#pragma once
// Shortest-path routing with every equal-cost next hop kept (ECMP), as GFC's simulations route
// ("shortest-path-first", GFC §6.2.2, §6.2.3). Deterministic: no tie is broken here; ties are
// the ECMP group, broken per flow by ecmp_port() (flow_hash.h).

#include "topology/route_table.h"
#include "topology/topology.h"

namespace fcswitch::topology {

// One BFS per switch with hosts, over switch-to-switch links (a port leading nowhere, e.g. a
// failed link removed by without_links(), carries nothing). At switch s, the group for host h
// is every port towards a neighbour one hop closer to h's switch; at h's own switch, h's port.
RouteTable shortest_routes(const Topology& topo);

}  // namespace fcswitch::topology

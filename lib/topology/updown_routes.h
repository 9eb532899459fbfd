#pragma once
// Up-down (valley-free) routing for tiered networks (Clos, fat-tree, leaf-spine): a path climbs
// tiers, then descends, and never climbs again after descending — the routing under which a
// Clos has no cyclic buffer dependency (Tagger §4.1), and the one Tagger's Clos scheme tags.

#include "topology/route_table.h"
#include "topology/topology.h"

namespace fcswitch::topology {

// Every switch needs a tier (TopologySwitch::tier >= 0; 0 faces the hosts); links between
// switches of one tier are not used. At switch s, for host h on switch d:
//   - d is below s (reachable by descending only): every port to a lower neighbour on a
//     shortest descent to d;
//   - otherwise: every port to a higher neighbour on a shortest climb-then-descend path.
// A packet that has descended is at a switch with d below it, and so is every switch of its
// shortest descent: it keeps descending. Throws std::invalid_argument without tiers.
RouteTable updown_routes(const Topology& topo);

}  // namespace fcswitch::topology

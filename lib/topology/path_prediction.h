#pragma once
// A packet's path predicted from the forwarding tables and the ECMP hash: what Pyrrha's path
// oracle needs to tell which downstream congestion root a packet will meet (Pyrrha §4), and
// what a test needs to know where a lab flow goes. It calls ecmp_port() at every hop, exactly
// as a switch forwarding the packet does.

#include <span>
#include <vector>

#include "topology/flow_hash.h"
#include "topology/route_table.h"
#include "topology/topology.h"

namespace fcswitch::topology {

struct Hop {
  int sw = -1;
  int in_port = -1;   // where the packet arrives
  int out_port = -1;  // where it leaves, chosen from the switch's group by ecmp_port()
};

// The switches from `src`'s switch to `dst`'s, each with its ports; the last hop's out_port
// faces `dst`. `seeds` has one seed per switch (switch_seeds()). Empty when the tables drop the
// packet (an empty group, a port leading nowhere or to another host) or loop it.
std::vector<Hop> predict_path(const RouteTable& routes, const Topology& topo, HostId src,
                              HostId dst, const FiveTuple& tuple, std::span<const uint32_t> seeds);

// The switches a packet meets after it leaves switch `sw` by `out_port` for `dst`, near to far,
// each with its ports (Pyrrha §4.2: its onward path). Empty when `out_port` faces a host, and
// when the tables drop or loop the packet further on.
std::vector<Hop> predict_onward(const RouteTable& routes, const Topology& topo, int sw,
                                int out_port, HostId dst, const FiveTuple& tuple,
                                std::span<const uint32_t> seeds);

}  // namespace fcswitch::topology

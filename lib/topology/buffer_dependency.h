#pragma once
// The buffer dependency graph of a routing (GFC §2; Tagger §4): a packet held in the ingress
// buffer of switch port A waits for room in the ingress buffer B it is forwarded to next, so A
// depends on B. A cycle of such dependencies is a cyclic buffer dependency (CBD), the
// precondition of a PFC or CBFC deadlock. GFC §6.2.3 runs Table 1 only on networks whose
// routing has one ("we can filter out cases which are prone to generate CBD in advance"):
// the topology and the routes decide it, before any packet is sent.
//
// Every member of every ECMP group counts: a destination's packets may take any of the equally
// short next hops (a flow's 5-tuple picks one, and a workload draws many flows per host pair),
// so an edge is in the graph when some packet between the given hosts can make it. This is the
// graph of every path the routes allow, a superset of the paths one run's flows hash to.
//
// Vertices are switch ingress endpoints (Topology::ingress); host endpoints are sinks and
// never part of a cycle. Pure: std only.

#include <span>
#include <vector>

#include "topology/route_table.h"
#include "topology/topology.h"

namespace fcswitch::topology {

struct HostPair {
  HostId src = -1;
  HostId dst = -1;
};

// Every ordered pair of hosts on different switches: GFC §6.2.3's workload ("each host
// randomly chooses a destination in different racks"), a rack being the switch a host hangs
// off.
std::vector<HostPair> pairs_across_racks(const HostTable& hosts);

class BufferDependencyGraph {
 public:
  // The dependencies packets between `pairs` can create under `routes` (their host numbers).
  // A pair whose packets the routes drop (an empty group, a port leading nowhere) adds the
  // edges made before the drop; a routing loop is a cycle.
  BufferDependencyGraph(const Topology& topo, const RouteTable& routes,
                        std::span<const HostPair> pairs);

  int vertices() const { return static_cast<int>(successors_.size()); }
  int edges() const { return edges_; }
  // The ingress endpoints a packet held at `from` may be forwarded into, ascending.
  const std::vector<EndpointId>& successors(EndpointId from) const { return successors_[from]; }

  bool has_cycle() const { return !cyclic_.empty(); }
  // Every endpoint that lies on some cycle (a strongly connected component of more than one
  // endpoint, or one with an edge to itself), ascending.
  const std::vector<EndpointId>& cyclic() const { return cyclic_; }
  // One shortest cycle through the lowest cyclic endpoint, in dependency order (each entry
  // depends on the next, the last on the first); empty without a CBD.
  std::vector<EndpointId> example_cycle() const;

 private:
  void find_cyclic();

  std::vector<std::vector<EndpointId>> successors_;
  int edges_ = 0;
  std::vector<EndpointId> cyclic_;
  std::vector<int> component_;  // per endpoint: its strongly connected component
};

}  // namespace fcswitch::topology

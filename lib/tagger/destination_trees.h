#pragma once
// Destination-rooted shortest-path trees (Tagger §8.2), kept rather than streamed: for each
// switch with hosts, every switch's port towards it, one byte a switch (100 MB for 10,000
// switches, where the 10^8 routes as lists would take gigabytes). Algorithm 2 and the coverage
// walk share work along each tree (greedy_tagging.h, elp_coverage.h) instead of walking every
// route; shortest_path_trees() streams the same routes from it.

#include <cstdint>
#include <vector>

#include "tagger/brute_force_tagging.h"
#include "tagger/elp.h"
#include "tagger/parallel_work.h"
#include "topology/topology.h"

namespace fcswitch::tagger {

class DestinationTrees {
 public:
  static constexpr uint8_t kNoPort = 0xFF;

  // One BFS tree towards each switch with hosts; ties between equally short next hops at
  // random, deterministic in `seed` (the same draws in the same order whatever `work.run`).
  DestinationTrees(const topology::Topology& topo, uint64_t seed, const ParallelWork& work = {});

  // The roots: switches with hosts, ascending. Trees are numbered by their place here.
  const std::vector<int>& destinations() const { return destinations_; }
  int trees() const { return static_cast<int>(destinations_.size()); }
  // The port of `sw` towards the root of tree `tree`; kNoPort at the root and where the root
  // cannot be reached.
  uint8_t port_towards(int tree, int sw) const {
    return ports_[static_cast<size_t>(tree) * switches_ + sw];
  }
  // The ingress endpoint that `sw`'s next hop towards the root of `tree` enters (`sw` not the
  // root, and reaching it).
  topology::EndpointId next_hop(int tree, int sw) const {
    return far_end_[first_endpoint_[sw] + port_towards(tree, sw)];
  }
  // Whether `from`'s hosts have a route in tree `tree` (its root's own hosts do).
  bool routes_from(int tree, int from) const;
  // Every route, by tree then source switch: shortest_path_trees()'s order.
  void for_each_route(const RouteSink& sink) const;
  // The route of `from` in tree `tree`, as the ingress endpoints it enters.
  std::vector<topology::EndpointId> hops(int tree, int from) const;
  const ElpSummary& summary() const { return summary_; }

 private:
  const topology::Topology& topo_;
  size_t switches_;
  std::vector<int> destinations_;
  std::vector<uint8_t> ports_;                                  // [tree * switches + sw]
  std::vector<topology::EndpointId> first_endpoint_, far_end_;  // Topology's, flat
  ElpSummary summary_;
};

}  // namespace fcswitch::tagger

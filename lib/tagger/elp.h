#pragma once
// Expected lossless paths (Tagger §4.1): the routes the operator wants lossless. A route runs
// from the hosts of one switch through a list of switch ingress ports to the hosts of the
// last switch; routes are streamed to a sink, since a 2,000-switch Jellyfish has millions.

#include <cstdint>
#include <functional>
#include <istream>
#include <span>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace fcswitch::tagger {

// `from`: the source switch (its hosts send); `hops`: the ingress endpoints the route enters,
// in order (empty: host to host on `from`).
using RouteSink = std::function<void(int from, std::span<const topology::EndpointId> hops)>;

// Every shortest path between every two switches with hosts (and each such switch to itself).
void shortest_paths(const topology::Topology& topo, const RouteSink& sink);

// Destination-rooted shortest-path trees (Tagger §8.2): for each switch with hosts one BFS tree
// towards it; every other switch with hosts routes along it. Ties between equally short
// next hops are broken at random (deterministic in `seed`), as independent routers would.
void shortest_path_trees(const topology::Topology& topo, uint64_t seed, const RouteSink& sink);

// Clos (switch tiers set): the shortest up-down paths (Tagger §3.2) plus every loop-free path
// with 1 … `bounces` down-up bounces (§4.3).
void updown_paths(const topology::Topology& topo, int bounces, const RouteSink& sink);

// Paths from a text file, one per line: names of switches in order (`A C B`), optionally
// starting and ending with host names, a switch written `A:3` entering it on port 3 (for
// parallel links); `#` starts a comment. Throws std::runtime_error naming `file:line`.
void read_elp_paths(const topology::Topology& topo, std::istream& in, const std::string& file,
                    const RouteSink& sink);

}  // namespace fcswitch::tagger

#pragma once
// Tagger Algorithm 1: walk every ELP route, tag 1 at the first switch (CoNEXT numbering; the
// generalisation text starts at 0) and one more at every hop. Deadlock-free by construction
// (Theorem 5.1: every edge raises the tag), with as many tags as the longest route.

#include <cstdint>
#include <functional>

#include "tagger/elp.h"
#include "tagger/tagged_graph.h"

namespace fcswitch::tagger {

inline constexpr int kFirstTag = 1;

// Calls its argument with every ELP route.
using RouteSource = std::function<void(const RouteSink&)>;

struct ElpSummary {
  uint64_t routes = 0;
  int longest_switches = 0;  // switches on the longest route
};

TaggedGraph brute_force_tagging(const topology::Topology& topo, const RouteSource& routes,
                                ElpSummary* summary = nullptr);

// The endpoint a route's first hop is tagged at: the switch's hosts enter on its host ports,
// which the graph represents by the first of them (rules cover them all).
topology::EndpointId source_endpoint(const topology::Topology& topo, int from);

}  // namespace fcswitch::tagger

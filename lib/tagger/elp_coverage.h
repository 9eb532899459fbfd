#pragma once
// Does every ELP route stay lossless under a rule set? Walks each route through the switches'
// rewrite tables from the first tag; a hop no rule covers would put the packet in the lossy
// queue. tagger-gen checks its own output with it (the verifier proves deadlock freedom; this
// proves the rules keep what the operator asked to be lossless).

#include <cstdint>
#include <string>
#include <vector>

#include "tagger/brute_force_tagging.h"
#include "tagger/destination_trees.h"
#include "tagger/parallel_work.h"
#include "tagger/tag_rewrite_table.h"
#include "topology/topology.h"

namespace fcswitch::tagger {

struct ElpCoverage {
  uint64_t routes = 0;
  uint64_t demoted = 0;       // routes that reach a hop with no rule
  std::string first_demoted;  // "A:2 → B:1 → C:3 (no rule for tag 2 at B from 1 to 4)"
};

ElpCoverage check_elp_coverage(const topology::Topology& topo,
                               const std::vector<TagRewriteTable>& tables,
                               const RouteSource& routes);

// The same for destination trees (§8.2), with the same result: routes that meet in a tree
// with the same tag share the rest of the walk, and trees are checked in parallel (`work`;
// progress in trees).
ElpCoverage check_elp_coverage(const topology::Topology& topo,
                               const std::vector<TagRewriteTable>& tables,
                               const DestinationTrees& trees, const ParallelWork& work = {});

}  // namespace fcswitch::tagger

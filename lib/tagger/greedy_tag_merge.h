#pragma once
// Tagger Algorithm 2 (§5.2): merge Algorithm 1's tags greedily. Old tags are taken in
// ascending order, the nodes of one old tag in endpoint order (switch, then port: the order
// that reproduces Table 4); each node joins the current new tag t' unless that closes a cycle
// inside G'_t', in which case it starts t' + 1. The sandbox's cycle check is incremental
// (dynamic_topological_order.h).
//
// Nodes nothing leaves (the destination hosts) cannot close a cycle: they take the highest tag
// they are entered with, so a delivery keeps its tag (Table 4 has no rule raising the tag
// into a host).
//
// One departure from the printed pseudo-code: on a cycle it removes (A_i, t') from the sandbox
// even when that node was already there from an earlier old tag, which would drop that node's
// edges and let a later cycle through; here only the edges just tried are removed.

#include "tagger/tagged_graph.h"

namespace fcswitch::tagger {

struct GreedyMergeResult {
  TaggedGraph graph;          // G'(V', E')
  std::vector<int> new_tag;   // per node of the input graph
};

GreedyMergeResult greedy_tag_merge(const TaggedGraph& brute_force);

}  // namespace fcswitch::tagger

#pragma once
// Tagger Algorithm 2 (§5.2): as few tags as the greedy finds. Decisions are taken in
// Algorithm 1's order — by its tag (the hop index), then by endpoint (switch, then port: the
// order that reproduces Table 4) — and each keeps the packet's tag unless that closes a cycle
// inside G_tag, in which case the tag goes up by one (never a decreasing edge: Theorem 5.1).
//
// One departure, so that the output is a rule table: the paper merges Algorithm 1's *nodes*,
// and nodes of one port with different old tags can merge while their successors do not, so
// one (tag, in port, out port) would need two new tags (on Clos with 1-bounce paths and on
// Jellyfish, most switches). Here the unit of decision is the transition (state, next
// endpoint): every route through the same state to the same next hop shares it, so the rules
// are a function by construction. Destination hosts close no cycle: a delivery keeps its tag.
// The sandbox's cycle check is incremental (dynamic_topological_order.h); the decisions and
// the sandbox are greedy_decisions.h, shared by both ways of walking the routes below.

#include "tagger/brute_force_tagging.h"
#include "tagger/destination_trees.h"
#include "tagger/greedy_decisions.h"
#include "tagger/parallel_work.h"
#include "tagger/tagged_graph.h"

namespace fcswitch::tagger {

// Any ELP: every route is walked again at every hop (progress: hops done, of unknown).
TaggedGraph greedy_tagging(const topology::Topology& topo, const RouteSource& routes,
                           ElpSummary* summary = nullptr, const ParallelWork& work = {});

// Destination trees (§8.2), the same decisions: routes that meet in a tree with the same tag
// go on together, so a hop is walked once per (tree edge, tag), not once per route, and
// groups of trees are walked in parallel (`work`; progress in steps: at each hop, a group of
// 64 trees walked, and then the hop's decisions as many steps as there are groups).
TaggedGraph greedy_tagging(const topology::Topology& topo, const DestinationTrees& trees,
                           const ParallelWork& work = {});

// The same, as the decisions themselves (the sandboxes freed): a switch's rules can be read
// from them one switch at a time (GreedyDecisions::rule_triples).
GreedyDecisions greedy_decisions(const topology::Topology& topo, const RouteSource& routes,
                                 ElpSummary* summary = nullptr, const ParallelWork& work = {});
GreedyDecisions greedy_decisions(const topology::Topology& topo, const DestinationTrees& trees,
                                 const ParallelWork& work = {});

}  // namespace fcswitch::tagger

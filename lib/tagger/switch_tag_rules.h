#pragma once
// Per-switch rule lists derived from a tagged graph (each edge (A_i, x) → (B_j, y) is the rule
// "tag x, in port i, out port towards B_j → y" at A; §5), or from the Clos scheme.

#include <string>
#include <vector>

#include "tagger/tag_rule.h"
#include "tagger/tagged_graph.h"
#include "topology/topology.h"

namespace fcswitch::tagger {

struct SwitchTagRules {
  std::vector<std::vector<RuleTriple>> triples;  // per switch, sorted, unique
  // (tag, in, out) triples the graph gives two new tags (a merge joined nodes whose onward
  // tags differ): a rule table cannot say both.
  std::vector<std::string> conflicts;

  std::vector<TagRule> compressed(int sw) const { return compress(triples[sw]); }
  size_t max_triples() const;
  size_t max_compressed() const;
};

SwitchTagRules rules_from_graph(const topology::Topology& topo, const TaggedGraph& graph);

// Sorts and removes duplicates, and records conflicts.
void settle(const topology::Topology& topo, SwitchTagRules& rules);
// The same for one switch's triples, its conflicts added to `conflicts`.
void settle_switch(const topology::Topology& topo, int sw, std::vector<RuleTriple>& triples,
                   std::vector<std::string>& conflicts);

}  // namespace fcswitch::tagger

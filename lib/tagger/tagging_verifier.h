#pragma once
// Checks a rule set against the two requirements of Tagger Theorem 5.1 on the tagged graph the
// rules induce on a topology: (1) no cycle inside one tag's subgraph G_k, (2) no edge from a
// tag to a lower one. Either broken, it names the offending cycle or edge. Works on any rule
// set: tagger-gen's own output, or a hand-written switch config.

#include <string>
#include <vector>

#include "tagger/parallel_work.h"
#include "tagger/tag_rule.h"
#include "topology/topology.h"

namespace fcswitch::tagger {

struct VerifierReport {
  std::vector<std::string> problems;  // empty: deadlock-free by Theorem 5.1
  std::vector<int> tags;              // tags on switch-to-switch edges and rules, ascending
  size_t nodes = 0;
  size_t edges = 0;
  bool ok() const { return problems.empty(); }
};

// `rules[s]` are switch s's rules (port indices of the topology). Progress: switches read.
VerifierReport verify_tag_rules(const topology::Topology& topo,
                                const std::vector<std::vector<TagRule>>& rules,
                                const ParallelWork& work = {});

}  // namespace fcswitch::tagger

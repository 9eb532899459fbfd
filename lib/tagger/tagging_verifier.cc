#include "tagger/tagging_verifier.h"

#include <algorithm>
#include <set>

#include "tagger/tagged_graph.h"

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::Topology;

namespace {

std::string node_name(const Topology& topo, const TaggedNode& n) {
  return "(" + topo.endpoint_name(n.endpoint) + ", tag " + std::to_string(n.tag) + ")";
}

// A cycle among edges that keep the tag, as node indices in order; empty when none.
std::vector<int> same_tag_cycle(const TaggedGraph& g) {
  std::vector<std::vector<int>> out(g.size());
  for (const auto& [a, b] : g.edges())
    if (g.at(a).tag == g.at(b).tag) out[a].push_back(b);
  std::vector<char> colour(g.size(), 0);  // 0 new, 1 on the stack, 2 done
  std::vector<int> parent(g.size(), -1);
  std::vector<std::pair<int, size_t>> stack;
  for (int root = 0; root < g.size(); ++root) {
    if (colour[root]) continue;
    stack.assign(1, {root, 0});
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next == out[v].size()) {
        colour[v] = 2;
        stack.pop_back();
        continue;
      }
      const int w = out[v][next++];
      if (colour[w] == 1) {
        std::vector<int> cycle{w};
        for (int x = v; x != w; x = parent[x]) cycle.push_back(x);
        std::reverse(cycle.begin() + 1, cycle.end());
        return cycle;
      }
      if (colour[w] == 0) {
        colour[w] = 1;
        parent[w] = v;
        stack.push_back({w, 0});
      }
    }
  }
  return {};
}

}  // namespace

VerifierReport verify_tag_rules(const Topology& topo,
                                const std::vector<std::vector<TagRule>>& rules,
                                const ParallelWork& work) {
  VerifierReport report;
  TaggedGraph graph;
  std::set<int> tags;
  const int switches = std::min(topo.switches(), static_cast<int>(rules.size()));
  for (int sw = 0; sw < switches; ++sw) {
    if (sw % 256 == 0) work.report(sw, switches);
    const auto& s = topo.at(sw);
    for (const TagRule& rule : rules[sw]) {
      tags.insert(rule.tag);
      for (const RuleTriple& t : expand(rule)) {
        if (t.in_port >= static_cast<int>(s.ports.size()) ||
            t.out_port >= static_cast<int>(s.ports.size())) {
          report.problems.push_back(s.name + ": a rule names port " +
                                    std::to_string(std::max(t.in_port, t.out_port)) +
                                    ", which the switch does not have");
          continue;
        }
        const EndpointId far = topo.far_end(sw, t.out_port);
        if (far < 0 || topo.is_hosts(far)) continue;  // hosts are sinks: no dependency
        const int from = graph.node(topo.ingress(sw, t.in_port), t.tag);
        const int to = graph.node(far, t.new_tag);
        graph.add_edge(from, to);
        if (t.new_tag < t.tag)
          report.problems.push_back(
              "requirement 2 broken (an edge lowers the tag): " + s.name + " rewrites tag " +
              std::to_string(t.tag) + " from " + s.ports[t.in_port].name + " to " +
              s.ports[t.out_port].name + " as " + std::to_string(t.new_tag) + ": " +
              node_name(topo, graph.at(from)) + " → " + node_name(topo, graph.at(to)));
      }
    }
  }
  const auto cycle = same_tag_cycle(graph);
  if (!cycle.empty()) {
    std::string text = "requirement 1 broken (a cycle inside tag " +
                       std::to_string(graph.at(cycle.front()).tag) + "): ";
    for (int v : cycle) text += node_name(topo, graph.at(v)) + " → ";
    text += node_name(topo, graph.at(cycle.front()));
    report.problems.push_back(text);
  }
  for (const TaggedNode& n : graph.nodes()) tags.insert(n.tag);
  report.tags.assign(tags.begin(), tags.end());
  report.nodes = static_cast<size_t>(graph.size());
  report.edges = graph.edges().size();
  return report;
}

}  // namespace fcswitch::tagger

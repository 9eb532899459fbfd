#include "tagger/greedy_tag_merge.h"

#include <algorithm>
#include <unordered_map>

#include "tagger/dynamic_topological_order.h"

namespace fcswitch::tagger {

GreedyMergeResult greedy_tag_merge(const TaggedGraph& g) {
  GreedyMergeResult result;
  const int n = g.size();
  result.new_tag.assign(n, -1);
  if (n == 0) return result;
  const auto preds = g.predecessors();
  // Endpoints no node leaves (the hosts): they close no cycle, so their nodes take the highest
  // tag they are entered with — a delivery keeps its tag, as in Table 4.
  std::unordered_map<EndpointId, bool> forwards;
  for (const auto& [from, to] : g.edges()) forwards[g.at(from).endpoint] = true;

  std::vector<std::vector<int>> by_tag(g.max_tag() + 1);
  for (int v = 0; v < n; ++v) by_tag[g.at(v).tag].push_back(v);
  for (auto& nodes : by_tag)
    std::sort(nodes.begin(), nodes.end(),
              [&](int a, int b) { return g.at(a).endpoint < g.at(b).endpoint; });

  // The sandbox G_tmp: the nodes of new tag t', by endpoint.
  DynamicTopologicalOrder sandbox;
  std::unordered_map<EndpointId, int> in_sandbox;
  auto sandbox_node = [&](EndpointId e) {
    const auto [it, added] = in_sandbox.try_emplace(e, 0);
    if (added) it->second = sandbox.add_node();
    return it->second;
  };
  std::vector<EndpointId> next_bin;  // endpoints re-tagged t' + 1 in this round
  std::vector<int> added;

  int current = g.min_tag();
  for (int t = g.min_tag(); t <= g.max_tag(); ++t) {
    for (int v : by_tag[t]) {
      const EndpointId e = g.at(v).endpoint;
      if (!forwards.count(e)) {
        int highest = current;
        if (!preds[v].empty()) {
          highest = 0;
          for (int u : preds[v]) highest = std::max(highest, result.new_tag[u]);
        }
        result.new_tag[v] = highest;
        continue;
      }
      const int local = sandbox_node(e);
      added.clear();
      bool acyclic = true;
      for (int u : preds[v]) {
        if (result.new_tag[u] != current) continue;  // an edge into G'_t' only from G'_t'
        const int from = in_sandbox.at(g.at(u).endpoint);
        const bool fresh = !sandbox.has_edge(from, local);
        if (!sandbox.add_edge(from, local)) {
          acyclic = false;
          break;
        }
        if (fresh) added.push_back(from);
      }
      if (acyclic) {
        result.new_tag[v] = current;
      } else {
        for (int from : added) sandbox.remove_edge(from, local);
        result.new_tag[v] = current + 1;
        next_bin.push_back(e);
      }
    }
    if (!next_bin.empty()) {
      // G'_(t'+1) so far: nodes of one old tag, so no edges between them.
      ++current;
      sandbox.clear();
      in_sandbox.clear();
      for (EndpointId e : next_bin) sandbox_node(e);
      next_bin.clear();
    }
  }

  for (int v = 0; v < n; ++v) result.graph.node(g.at(v).endpoint, result.new_tag[v]);
  for (const auto& [from, to] : g.edges())
    result.graph.add_edge(
        result.graph.find(g.at(from).endpoint, result.new_tag[from]),
        result.graph.find(g.at(to).endpoint, result.new_tag[to]));
  return result;
}

}  // namespace fcswitch::tagger

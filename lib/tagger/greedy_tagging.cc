#include "tagger/greedy_tagging.h"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "tagger/dynamic_topological_order.h"

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::Topology;

namespace {

uint64_t state_key(EndpointId e, int tag) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(e)) << 16) | static_cast<uint16_t>(tag);
}

// G_tag's cycle check over endpoints.
struct TagSandbox {
  DynamicTopologicalOrder order;
  std::unordered_map<EndpointId, int> local;
  int node(EndpointId e) {
    const auto [it, added] = local.try_emplace(e, 0);
    if (added) it->second = order.add_node();
    return it->second;
  }
};

}  // namespace

TaggedGraph greedy_tagging(const Topology& topo, const RouteSource& routes, ElpSummary* summary) {
  // Decided transitions: (state, next endpoint) → new tag.
  std::unordered_map<uint64_t, std::unordered_map<EndpointId, int>> decided;
  std::map<int, std::unique_ptr<TagSandbox>> sandboxes;
  auto sandbox = [&](int tag) -> TagSandbox& {
    auto& s = sandboxes[tag];
    if (!s) s = std::make_unique<TagSandbox>();
    return *s;
  };
  ElpSummary seen;
  bool first_pass = true;
  for (int layer = 0;; ++layer) {
    // The transitions routes take at hop `layer`, reached through the rules decided so far.
    struct Pending {
      EndpointId target, source;
      int tag;
    };
    std::vector<Pending> pending;
    std::unordered_set<uint64_t> queued;
    routes([&](int from, std::span<const EndpointId> hops) {
      if (first_pass) {
        ++seen.routes;
        seen.longest_switches = std::max(seen.longest_switches, static_cast<int>(hops.size()) + 1);
      }
      if (layer > static_cast<int>(hops.size())) return;
      EndpointId at = source_endpoint(topo, from);
      int tag = kFirstTag;
      for (int h = 0; h < layer; ++h) {
        tag = decided.at(state_key(at, tag)).at(hops[h]);
        at = hops[h];
      }
      const int last = hops.empty() ? from : topo.switch_of(hops.back());
      const EndpointId next =
          layer < static_cast<int>(hops.size()) ? hops[layer] : topo.at(last).hosts;
      const uint64_t s = state_key(at, tag);
      if (auto it = decided.find(s); it != decided.end() && it->second.count(next)) return;
      const uint64_t q = s * 1000003u ^ static_cast<uint64_t>(next);
      if (queued.insert(q).second) pending.push_back({next, at, tag});
    });
    first_pass = false;
    if (pending.empty()) break;
    std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
      return a.target != b.target ? a.target < b.target : a.source < b.source;
    });
    for (const Pending& p : pending) {
      int new_tag = p.tag;
      if (!topo.is_hosts(p.target)) {
        TagSandbox& box = sandbox(p.tag);
        if (!box.order.add_edge(box.node(p.source), box.node(p.target))) new_tag = p.tag + 1;
      }
      decided[state_key(p.source, p.tag)][p.target] = new_tag;
    }
  }
  if (summary) *summary = seen;

  TaggedGraph graph;
  for (const auto& [key, targets] : decided) {
    const EndpointId e = static_cast<EndpointId>(key >> 16);
    const int tag = static_cast<int>(key & 0xFFFF);
    const int from = graph.node(e, tag);
    for (const auto& [target, new_tag] : targets) graph.add_edge(from, graph.node(target, new_tag));
  }
  return graph;
}

}  // namespace fcswitch::tagger

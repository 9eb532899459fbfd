#include "tagger/tagged_graph.h"

#include <algorithm>

namespace fcswitch::tagger {

using topology::EndpointId;

int TaggedGraph::node(EndpointId endpoint, int tag) {
  const auto [it, added] = index_.try_emplace(key(endpoint, tag), size());
  if (added) {
    nodes_.push_back({endpoint, tag});
    max_tag_ = std::max(max_tag_, tag);
    min_tag_ = std::min(min_tag_, tag);
  }
  return it->second;
}

int TaggedGraph::find(EndpointId endpoint, int tag) const {
  const auto it = index_.find(key(endpoint, tag));
  return it == index_.end() ? -1 : it->second;
}

void TaggedGraph::add_edge(int from, int to) {
  const uint64_t k = (static_cast<uint64_t>(from) << 32) | static_cast<uint32_t>(to);
  if (edge_set_.insert(k).second) edges_.emplace_back(from, to);
}

std::vector<std::vector<int>> TaggedGraph::predecessors() const {
  std::vector<std::vector<int>> in(nodes_.size());
  for (const auto& [from, to] : edges_) in[to].push_back(from);
  return in;
}

std::vector<std::vector<int>> TaggedGraph::successors() const {
  std::vector<std::vector<int>> out(nodes_.size());
  for (const auto& [from, to] : edges_) out[from].push_back(to);
  return out;
}

}  // namespace fcswitch::tagger

#include "tagger/tagged_graph.h"

#include <algorithm>

namespace fcswitch::tagger {

using topology::EndpointId;

namespace {

bool dense_tag(int tag) {
  return tag >= 0 && tag < 64;
}

}  // namespace

int TaggedGraph::node(EndpointId endpoint, int tag) {
  int* slot = nullptr;
  if (dense_tag(tag) && endpoint >= 0) {
    if (static_cast<int>(index_.size()) <= tag) index_.resize(tag + 1);
    std::vector<int>& by_endpoint = index_[tag];
    if (static_cast<int>(by_endpoint.size()) <= endpoint)
      by_endpoint.resize(std::max<size_t>(endpoint + 1, 2 * by_endpoint.size()), -1);
    slot = &by_endpoint[endpoint];
  } else {
    slot = &odd_index_.try_emplace({tag, endpoint}, -1).first->second;
  }
  int& n = *slot;
  if (n < 0) {
    n = size();
    nodes_.push_back({endpoint, tag});
    out_.emplace_back();
    max_tag_ = std::max(max_tag_, tag);
    min_tag_ = std::min(min_tag_, tag);
  }
  return n;
}

int TaggedGraph::find(EndpointId endpoint, int tag) const {
  if (!dense_tag(tag) || endpoint < 0) {
    const auto it = odd_index_.find({tag, endpoint});
    return it == odd_index_.end() ? -1 : it->second;
  }
  if (tag >= static_cast<int>(index_.size()) || endpoint >= static_cast<int>(index_[tag].size()))
    return -1;
  return index_[tag][endpoint];
}

void TaggedGraph::add_edge(int from, int to) {
  std::vector<int>& heads = out_[from];
  if (std::find(heads.begin(), heads.end(), to) != heads.end()) return;
  heads.push_back(to);
  edges_.emplace_back(from, to);
}

std::vector<std::vector<int>> TaggedGraph::predecessors() const {
  std::vector<std::vector<int>> in(nodes_.size());
  for (const auto& [from, to] : edges_) in[to].push_back(from);
  return in;
}

std::vector<std::vector<int>> TaggedGraph::successors() const {
  return out_;
}

}  // namespace fcswitch::tagger

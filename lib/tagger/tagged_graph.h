#pragma once
// The tagged graph G(V, E) of Tagger §5 (Table 2): a node (A_i, x) for each ingress endpoint
// that may receive lossless packets with tag x, an edge (A_i, x) → (B_j, y) when switch A may
// send such a packet on to B_j with tag y. The destination's hosts are one sink endpoint.

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "topology/topology.h"

namespace fcswitch::tagger {

struct TaggedNode {
  topology::EndpointId endpoint;
  int tag;
};

class TaggedGraph {
 public:
  // The node (endpoint, tag), added if new.
  int node(topology::EndpointId endpoint, int tag);
  // -1 when absent.
  int find(topology::EndpointId endpoint, int tag) const;
  void add_edge(int from, int to);

  int size() const { return static_cast<int>(nodes_.size()); }
  const TaggedNode& at(int n) const { return nodes_[n]; }
  const std::vector<TaggedNode>& nodes() const { return nodes_; }
  // Distinct edges as (from, to), in insertion order.
  const std::vector<std::pair<int, int>>& edges() const { return edges_; }
  int max_tag() const { return max_tag_; }
  int min_tag() const { return min_tag_; }

  // Incoming / outgoing neighbour lists, built on demand (after the last add_edge).
  std::vector<std::vector<int>> predecessors() const;
  std::vector<std::vector<int>> successors() const;

 private:
  static uint64_t key(topology::EndpointId endpoint, int tag) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(endpoint)) << 16) |
           static_cast<uint16_t>(tag);
  }

  std::vector<TaggedNode> nodes_;
  std::unordered_map<uint64_t, int> index_;
  std::vector<std::pair<int, int>> edges_;
  std::unordered_set<uint64_t> edge_set_;
  int max_tag_ = 0;
  int min_tag_ = 1 << 15;
};

}  // namespace fcswitch::tagger

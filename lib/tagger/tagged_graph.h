#pragma once
// The tagged graph G(V, E) of Tagger §5 (Table 2): a node (A_i, x) for each ingress endpoint
// that may receive lossless packets with tag x, an edge (A_i, x) → (B_j, y) when switch A may
// send such a packet on to B_j with tag y. The destination's hosts are one sink endpoint.

#include <cstdint>
#include <map>
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
  // Flat, for graphs of 10^7 edges (a 10,000-switch Jellyfish): nodes by tag, then endpoint;
  // an edge is new unless its head is in the tail's list (a node has few out-edges: at most
  // one per port of its switch and new tag).
  std::vector<TaggedNode> nodes_;
  std::vector<std::vector<int>> index_;  // [tag][endpoint] → node, -1 absent; tags 0 … 63
  std::map<std::pair<int, topology::EndpointId>, int> odd_index_;  // other tags (hand-written)
  std::vector<std::pair<int, int>> edges_;
  std::vector<std::vector<int>> out_;  // node → heads of its edges
  int max_tag_ = 0;
  int min_tag_ = 1 << 15;
};

}  // namespace fcswitch::tagger

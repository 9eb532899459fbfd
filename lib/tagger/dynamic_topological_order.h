#pragma once
// Incremental cycle detection for Algorithm 2's sandbox: a topological order kept up to date
// as edges are added (Pearce & Kelly, "A dynamic topological sort algorithm for directed
// acyclic graphs", JEA 2007). Adding u → v searches only the nodes between v and u in the
// order, instead of a BFS over the whole sandbox per node (Tagger §5.3) — what makes a
// 10,000-switch Jellyfish take minutes instead of the paper's 19.6 hours (Fig. 13).

#include <vector>

namespace fcswitch::tagger {

class DynamicTopologicalOrder {
 public:
  int add_node();
  // Adds u → v unless it would close a cycle (u == v included); false then, nothing added.
  bool add_edge(int u, int v);
  // Removing an edge keeps the order valid.
  void remove_edge(int u, int v);
  bool has_edge(int u, int v) const;
  void clear();
  int size() const { return static_cast<int>(order_.size()); }

 private:
  bool reaches_within(int from, int target, int upper);  // forward search, order ≤ upper
  void collect_backward(int from, int lower);

  std::vector<int> order_;  // node → position
  std::vector<std::vector<int>> out_, in_;
  std::vector<char> mark_;
  std::vector<int> forward_, backward_, stack_;
};

}  // namespace fcswitch::tagger

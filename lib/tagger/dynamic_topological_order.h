#pragma once
// Incremental cycle detection for Algorithm 2's sandbox: a topological order kept up to date
// as edges are added (Pearce & Kelly, "A dynamic topological sort algorithm for directed
// acyclic graphs", JEA 2007). Adding u → v searches only the nodes between v and u in the
// order, instead of a BFS over the whole sandbox per node (Tagger §5.3). The search goes
// both ways at once (forward from v, backward from u) and stops where they meet: most edges
// Algorithm 2 tries on a Jellyfish close a cycle, and meeting in the middle finds it sooner.

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
  // Forward from v (order < order(u)) and backward from u (order > order(v)) in turns; true
  // when they meet (v reaches u). Otherwise both sets are complete in forward_ / backward_.
  bool meets(int u, int v);
  void reorder();  // backward_ before forward_, in the slots they held
  void unmark();

  // node → position: distinct, not dense (a node may move before the first or after the last)
  std::vector<int> order_;
  int next_first_ = -1, next_last_ = 0;
  std::vector<std::vector<int>> out_, in_;
  std::vector<char> mark_;  // 1: reached from v, 2: reaches u (during one add_edge)
  // Nodes reached_from_ is known to reach: reached_[n] == reached_stamp_.
  std::vector<unsigned> reached_;
  int reached_from_ = -1;
  unsigned reached_stamp_ = 0;
  std::vector<int> forward_, backward_, forward_stack_, backward_stack_, slots_;
};

}  // namespace fcswitch::tagger

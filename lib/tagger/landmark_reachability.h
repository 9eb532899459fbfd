#pragma once
// A fast "yes" to "does a reach b?" in a growing DAG, for Algorithm 2's sandbox: 64 landmark
// nodes, and for every node a bit per landmark that reaches it and a bit per landmark it
// reaches (one machine word each way). If a reaches some landmark that reaches b, a reaches b;
// otherwise the answer is unknown and the caller searches. Reachability only grows as edges are
// added, so the bits are kept by pushing new ones forward/backward from the new edge (each bit
// reaches each node once: O(64 (n + m)) over a whole run, most of it one word at a time).
//
// Why: on a Jellyfish, most transitions Algorithm 2 tries close a cycle in G_tag (the target
// already reaches the source), and G_tag's reachability is dense: a few well-connected
// landmarks lie on such paths for almost every pair (2 000 switches: 94 % of the refused
// edges answered here, without a search). The landmarks are the nodes with the most
// in × out edges, chosen again each time the graph has doubled.

#include <cstdint>
#include <vector>

namespace fcswitch::tagger {

class LandmarkReachability {
 public:
  using Adjacency = std::vector<std::vector<int>>;

  void add_node() {
    from_landmarks_.push_back(0);
    to_landmarks_.push_back(0);
  }
  // True only if `a` reaches `b` (through a landmark); false says nothing.
  bool surely_reaches(int a, int b) const { return (to_landmarks_[a] & from_landmarks_[b]) != 0; }

  // After the edge u → v was added to `out` / `in`: pushes the landmarks that reach u on to
  // everything v reaches, and those v reaches back to everything that reaches u.
  void edge_added(int u, int v, const Adjacency& out, const Adjacency& in);

  // Picks the landmarks anew (the 64 nodes of most in × out edges) and computes their bits
  // from scratch; `topological` lists every node, each edge's tail before its head.
  void choose(const std::vector<int>& topological, const Adjacency& out, const Adjacency& in);

 private:
  // Bits that reached a node from a neighbour, still to be passed on (scratch).
  struct Push {
    int node;
    uint64_t bits;
  };
  static void push(std::vector<uint64_t>& mask, int start, uint64_t bits, const Adjacency& next,
                   std::vector<Push>& stack);

  std::vector<uint64_t> from_landmarks_;  // node → landmarks that reach it (itself included)
  std::vector<uint64_t> to_landmarks_;    // node → landmarks it reaches (itself included)
  std::vector<Push> stack_;
};

}  // namespace fcswitch::tagger

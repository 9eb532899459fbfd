#include "tagger/dynamic_topological_order.h"

#include <algorithm>

namespace fcswitch::tagger {

int DynamicTopologicalOrder::add_node() {
  out_.emplace_back();
  in_.emplace_back();
  mark_.push_back(kNone);
  reached_.push_back(0);
  landmarks_.add_node();
  return order_.push_back();
}

bool DynamicTopologicalOrder::has_edge(int u, int v) const {
  return std::find(out_[u].begin(), out_[u].end(), v) != out_[u].end();
}

void DynamicTopologicalOrder::Side::start(int node) {
  found.assign(1, node);
  head = next = 0;
}

DynamicTopologicalOrder::Step DynamicTopologicalOrder::step(
    Side& side, const std::vector<std::vector<int>>& edges, Mark own, Mark other, uint64_t bound,
    bool below) {
  const std::vector<int>& next = edges[side.found[side.head]];
  if (side.next == next.size()) {
    side.next = 0;
    return ++side.head == side.found.size() ? Step::kComplete : Step::kGoing;
  }
  const int x = next[side.next++];
  // Backward, a node v is known to reach is as good as one the forward side found.
  if (mark_[x] == other || (own == kToU && reached_[x] == reached_stamp_)) return Step::kMet;
  // Only nodes between v and u in the order can lie on a path from v to u.
  const uint64_t label = order_.label(x);
  if (mark_[x] == kNone && (below ? label < bound : label > bound)) {
    mark_[x] = own;
    marked_.push_back(x);
    side.found.push_back(x);
  }
  return Step::kGoing;
}

bool DynamicTopologicalOrder::search_and_reorder(int u, int v) {
  forward_.start(v);
  backward_.start(u);
  mark_[v] = kFromV;
  mark_[u] = kToU;
  marked_.assign({u, v});
  const uint64_t upper = order_.label(u), lower = order_.label(v);
  Step forward = Step::kGoing, backward = Step::kGoing;
  // The side with fewer nodes waiting to be expanded goes on (the classic balance of a
  // bidirectional search): 10 000 switches, 707 M edges followed against 965 M one each in turn.
  while (forward == Step::kGoing && backward == Step::kGoing) {
    if (forward_.waiting() <= backward_.waiting()) {
      forward = step(forward_, out_, kFromV, kToU, upper, true);
    } else {
      backward = step(backward_, in_, kToU, kFromV, lower, false);
    }
  }
  for (int x : marked_) mark_[x] = kNone;
  for (int x : forward_.found) reached_[x] = reached_stamp_;
  if (forward == Step::kMet || backward == Step::kMet) return false;
  // One side is enough (Pearce–Kelly move both, into the slots they held). F, all that v
  // reaches before u, goes just after u: an edge into F from outside comes from before F's
  // node, so from before u; an edge out of F leads to F or past u. B, all that reaches u
  // after v, goes just before v likewise. Each side keeps its own order, so its own edges.
  Side& side = forward == Step::kComplete ? forward_ : backward_;
  std::sort(side.found.begin(), side.found.end(),
            [&](int a, int b) { return order_.before(a, b); });
  if (&side == &forward_) {
    order_.move_after(u, side.found);
  } else {
    order_.move_before(v, side.found);
  }
  return true;
}

void DynamicTopologicalOrder::link(int u, int v) {
  out_[u].push_back(v);
  in_[v].push_back(u);
  landmarks_.edge_added(u, v, out_, in_);
  if (++edges_ >= next_landmark_choice_) {
    next_landmark_choice_ = 2 * edges_;
    landmarks_.choose(order_.in_order(), out_, in_);
  }
}

bool DynamicTopologicalOrder::add_edge(int u, int v) {
  if (u == v) return false;
  if (has_edge(u, v)) return true;
  // u before v: the order already holds the edge, and no path leads back from v to u.
  if (!order_.before(u, v)) {
    if (landmarks_.surely_reaches(v, u)) return false;
    if (v != reached_from_) {
      reached_from_ = v;
      ++reached_stamp_;
    }
    if (reached_[u] == reached_stamp_) return false;
    if (!search_and_reorder(u, v)) return false;
  }
  link(u, v);
  return true;
}

}  // namespace fcswitch::tagger

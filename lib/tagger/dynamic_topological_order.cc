#include "tagger/dynamic_topological_order.h"

#include <algorithm>

namespace fcswitch::tagger {

int DynamicTopologicalOrder::add_node() {
  order_.push_back(next_last_++);
  reached_.push_back(0);
  out_.emplace_back();
  in_.emplace_back();
  mark_.push_back(0);
  return size() - 1;
}

void DynamicTopologicalOrder::clear() {
  order_.clear();
  next_first_ = -1;
  next_last_ = 0;
  out_.clear();
  in_.clear();
  mark_.clear();
  reached_.clear();
  reached_from_ = -1;
}

bool DynamicTopologicalOrder::has_edge(int u, int v) const {
  return std::find(out_[u].begin(), out_[u].end(), v) != out_[u].end();
}

bool DynamicTopologicalOrder::meets(int u, int v) {
  const int lower = order_[v];
  const int upper = order_[u];
  forward_.assign(1, v);
  backward_.assign(1, u);
  forward_stack_.assign(1, v);
  backward_stack_.assign(1, u);
  mark_[v] = 1;
  mark_[u] = 2;
  // One node expanded each way per turn, depth first.
  while (!forward_stack_.empty() || !backward_stack_.empty()) {
    if (!forward_stack_.empty()) {
      const int w = forward_stack_.back();
      forward_stack_.pop_back();
      for (int x : out_[w]) {
        if (mark_[x] == 2) return true;
        if (!mark_[x] && order_[x] < upper) {
          mark_[x] = 1;
          forward_.push_back(x);
          forward_stack_.push_back(x);
        }
      }
    }
    if (!backward_stack_.empty()) {
      const int w = backward_stack_.back();
      backward_stack_.pop_back();
      for (int x : in_[w]) {
        if (mark_[x] == 1 || reached_[x] == reached_stamp_) return true;
        if (!mark_[x] && order_[x] > lower) {
          mark_[x] = 2;
          backward_.push_back(x);
          backward_stack_.push_back(x);
        }
      }
    }
  }
  return false;
}

void DynamicTopologicalOrder::unmark() {
  for (int w : forward_) mark_[w] = 0;
  for (int w : backward_) mark_[w] = 0;
}

void DynamicTopologicalOrder::reorder() {
  auto by_order = [&](int a, int b) { return order_[a] < order_[b]; };
  std::sort(forward_.begin(), forward_.end(), by_order);
  std::sort(backward_.begin(), backward_.end(), by_order);
  slots_.clear();
  for (int w : backward_) slots_.push_back(order_[w]);
  for (int w : forward_) slots_.push_back(order_[w]);
  std::sort(slots_.begin(), slots_.end());
  size_t i = 0;
  for (int w : backward_) order_[w] = slots_[i++];
  for (int w : forward_) order_[w] = slots_[i++];
}

bool DynamicTopologicalOrder::add_edge(int u, int v) {
  if (u == v) return false;
  if (has_edge(u, v)) return true;
  if (order_[u] > order_[v]) {
    if (in_[u].empty()) {
      order_[u] = next_first_--;  // nothing reaches u: it may go first, and no cycle closes
    } else if (out_[v].empty()) {
      order_[v] = next_last_++;  // v reaches nothing: it may go last
    } else {
      // Only nodes ordered between v and u can be affected (Pearce–Kelly). What v was found
      // to reach stays reached while edges are only added: a run of edges into one v (the
      // order Algorithm 2 takes them in) shares it.
      if (v != reached_from_) {
        reached_from_ = v;
        ++reached_stamp_;
      }
      if (reached_[u] == reached_stamp_) return false;
      const bool cycle = meets(u, v);
      for (int w : forward_) reached_[w] = reached_stamp_;
      if (!cycle) reorder();
      unmark();
      if (cycle) return false;
    }
  }
  out_[u].push_back(v);
  in_[v].push_back(u);
  return true;
}

void DynamicTopologicalOrder::remove_edge(int u, int v) {
  auto drop = [](std::vector<int>& list, int x) {
    const auto it = std::find(list.begin(), list.end(), x);
    if (it != list.end()) {
      *it = list.back();
      list.pop_back();
    }
  };
  drop(out_[u], v);
  drop(in_[v], u);
  reached_from_ = -1;  // what v reached may be lost
}

}  // namespace fcswitch::tagger

#include "tagger/dynamic_topological_order.h"

#include <algorithm>

namespace fcswitch::tagger {

int DynamicTopologicalOrder::add_node() {
  order_.push_back(size());
  out_.emplace_back();
  in_.emplace_back();
  mark_.push_back(0);
  return size() - 1;
}

void DynamicTopologicalOrder::clear() {
  order_.clear();
  out_.clear();
  in_.clear();
  mark_.clear();
}

bool DynamicTopologicalOrder::has_edge(int u, int v) const {
  return std::find(out_[u].begin(), out_[u].end(), v) != out_[u].end();
}

bool DynamicTopologicalOrder::reaches_within(int from, int target, int upper) {
  forward_.clear();
  stack_.assign(1, from);
  mark_[from] = 1;
  bool found = false;
  while (!stack_.empty() && !found) {
    const int w = stack_.back();
    stack_.pop_back();
    forward_.push_back(w);
    for (int x : out_[w]) {
      if (x == target) {
        found = true;
        break;
      }
      if (!mark_[x] && order_[x] < upper) {
        mark_[x] = 1;
        stack_.push_back(x);
      }
    }
  }
  for (int w : stack_) forward_.push_back(w);
  return found;
}

void DynamicTopologicalOrder::collect_backward(int from, int lower) {
  backward_.clear();
  stack_.assign(1, from);
  mark_[from] = 2;
  while (!stack_.empty()) {
    const int w = stack_.back();
    stack_.pop_back();
    backward_.push_back(w);
    for (int x : in_[w])
      if (!mark_[x] && order_[x] > lower) {
        mark_[x] = 2;
        stack_.push_back(x);
      }
  }
}

bool DynamicTopologicalOrder::add_edge(int u, int v) {
  if (u == v) return false;
  if (has_edge(u, v)) return true;
  if (order_[u] > order_[v]) {
    // Only nodes ordered between v and u can be affected (Pearce–Kelly).
    const int lower = order_[v];
    const int upper = order_[u];
    const bool cycle = reaches_within(v, u, upper);
    if (cycle) {
      for (int w : forward_) mark_[w] = 0;
      return false;
    }
    collect_backward(u, lower);
    auto by_order = [&](int a, int b) { return order_[a] < order_[b]; };
    std::sort(forward_.begin(), forward_.end(), by_order);
    std::sort(backward_.begin(), backward_.end(), by_order);
    std::vector<int> slots;
    slots.reserve(forward_.size() + backward_.size());
    for (int w : backward_) slots.push_back(order_[w]);
    for (int w : forward_) slots.push_back(order_[w]);
    std::sort(slots.begin(), slots.end());
    size_t i = 0;
    for (int w : backward_) order_[w] = slots[i++];
    for (int w : forward_) order_[w] = slots[i++];
    for (int w : forward_) mark_[w] = 0;
    for (int w : backward_) mark_[w] = 0;
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
}

}  // namespace fcswitch::tagger

#pragma once
// A list whose order can be asked in O(1) and changed by moving runs of elements next to
// another one: the order-maintenance problem (Dietz & Sleator, STOC 1987), here as in Bender,
// Cole, Demaine, Farach-Colton & Zito, "Two simplified algorithms for maintaining order in a
// list" (ESA 2002, §2): each element carries an integer label increasing along the list;
// an insertion takes a label in the gap it lands in, and when the gap is too small the
// smallest enclosing aligned range of labels that is sparse enough is relabelled evenly
// (O(log n) amortized relabels per insertion).
//
// Algorithm 2's sandbox keeps its topological order in one (dynamic_topological_order.h):
// adding an edge moves the nodes found on one side of it next to the other end, which integer
// positions alone (Pearce & Kelly's) cannot do without shifting everything in between.

#include <cstdint>
#include <span>
#include <vector>

namespace fcswitch::tagger {

class OrderMaintenanceList {
 public:
  // A new element at the end of the list; ids are 0, 1, 2, … in the order of this call.
  int push_back();
  int size() const { return static_cast<int>(label_.size()) - kSentinels; }
  // Whether `a` comes before `b`.
  bool before(int a, int b) const { return label(a) < label(b); }
  // Labels increase along the list; they change only when elements move.
  uint64_t label(int x) const { return label_[x + kSentinels]; }

  // Moves `run` (distinct elements, `anchor` not among them) to sit right after / right
  // before `anchor`, in the order given; the rest of the list keeps its order.
  void move_after(int anchor, std::span<const int> run);
  void move_before(int anchor, std::span<const int> run);

  // The elements from first to last (for tests and for walks in order).
  std::vector<int> in_order() const;

 private:
  // Internal slots: 0 and 1 are the head and tail sentinels (labels 0 and kUniverse), which
  // never move; element x is slot x + kSentinels.
  static constexpr int kSentinels = 2;
  static constexpr int kHead = 0, kTail = 1;
  static constexpr int kUniverseBits = 62;
  static constexpr uint64_t kUniverse = uint64_t{1} << kUniverseBits;

  void unlink(int slot);
  // Links the slots of `run` between `after` and its successor and labels them.
  void insert_run(int after, std::span<const int> run);
  // Spreads labels over the smallest aligned range around `after` that has room for the
  // `extra` slots linked after it (Bender et al., §2: a range of 2^i labels may hold at most
  // (2/T)^i elements, T = 1.5).
  void relabel(int after, int extra);

  std::vector<uint64_t> label_;
  std::vector<int> prev_, next_;
  std::vector<int> run_slots_;  // scratch
};

}  // namespace fcswitch::tagger

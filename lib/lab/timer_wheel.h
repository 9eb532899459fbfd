#pragma once
// The lab schedule's timers (item, ticks): a wheel of one-tick slots over the next kSlots
// ticks, and a heap for the timers beyond it. Most of a network's timers fall within a few
// microseconds (a frame's arrival, the wire freeing, a pacer), and there an arming is a push
// onto a slot's list and a bit, and finding the earliest is two bit scans, where a binary heap
// of every item's timer sifted through its depth on every pop (8 % of a fat-tree
// permutation's instructions).
//
// Like the heap it replaces, it keeps every arming: a timer re-armed before it is due leaves
// its old entry behind, stale (its ticks are no longer the item's), which the caller skips
// when it comes due and which next_live_ticks() drops on its way to the earliest live one. A
// timer armed before the wheel's base (already due) is placed at the base, its entry keeping
// its own ticks: next_live_ticks() then gives the base, which the lab's clock, stepping at
// least one tick on, treats as it treated the earlier time. Entries due at one step come out
// in no set order: the schedule wakes every due item before it polls any.

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "core/tick_rate.h"

namespace fcswitch::lab {

class TimerWheel {
 public:
  static constexpr uint64_t kSlots = 4096;  // 4.096 µs at the virtual clock's 1 ns ticks
  struct Entry {
    uint64_t ticks;
    uint32_t item;
    bool operator>(const Entry& o) const { return ticks > o.ticks; }
  };

  TimerWheel() : head_(kSlots, kNone) {}

  // A timer of `item` at `ticks`.
  void add(uint64_t ticks, uint32_t item) {
    if (ticks >= base_ + kSlots) {
      far_.push({ticks, item});
      return;
    }
    const auto slot = static_cast<uint32_t>((ticks > base_ ? ticks : base_) & kMask);
    uint32_t node = free_;
    if (node != kNone) {
      free_ = nodes_[node].next;
    } else {
      node = static_cast<uint32_t>(nodes_.size());
      nodes_.emplace_back();
    }
    nodes_[node] = {{ticks, item}, head_[slot]};
    head_[slot] = node;
    words_[slot >> 6] |= uint64_t{1} << (slot & 63);
    summary_ |= uint64_t{1} << (slot >> 6);
  }

  // Where the earliest live timer is placed (kNeverTicks: none): its ticks, or the base for
  // one armed before it. Stale entries met before it (live(entry) false) are dropped.
  template <class Live>
  uint64_t next_live_ticks(Live&& live) {
    for (;;) {
      while (!far_.empty() && !live(far_.top())) far_.pop();
      const uint64_t far = far_.empty() ? kNeverTicks : far_.top().ticks;
      if (!summary_) return far;
      const uint32_t slot = next_slot();
      const uint64_t wheel = base_ + distance(slot);
      if (far < wheel) return far;
      // The slot's stale entries go back to the free list; a live one ends the search.
      bool any_live = false;
      for (uint32_t* link = &head_[slot]; *link != kNone;) {
        const uint32_t node = *link;
        if (live(nodes_[node].entry)) {
          any_live = true;
          link = &nodes_[node].next;
        } else {
          *link = nodes_[node].next;
          release(node);
        }
      }
      if (any_live) return wheel;
      clear(slot);
    }
  }

  // Takes every timer placed at or before `now` (≥ the base), calling take(entry) for each,
  // then moves the base to `now`. take must not add timers.
  template <class Take>
  void take_due(uint64_t now, Take&& take) {
    while (summary_) {
      const uint32_t slot = next_slot();
      if (base_ + distance(slot) > now) break;
      for (uint32_t node = head_[slot]; node != kNone;) {
        const uint32_t next = nodes_[node].next;
        take(nodes_[node].entry);
        release(node);
        node = next;
      }
      head_[slot] = kNone;
      clear(slot);
    }
    while (!far_.empty() && far_.top().ticks <= now) {
      take(far_.top());
      far_.pop();
    }
    base_ = now;
  }

 private:
  static constexpr uint64_t kMask = kSlots - 1;
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr int kWords = static_cast<int>(kSlots / 64);
  static_assert(kWords == 64, "one summary word: a bit per word of slots");
  struct Node {
    Entry entry;
    uint32_t next;
  };

  uint64_t distance(uint32_t slot) const { return (slot - base_) & kMask; }
  void release(uint32_t node) {
    nodes_[node].next = free_;
    free_ = node;
  }
  void clear(uint32_t slot) {  // its list is empty
    words_[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
    if (!words_[slot >> 6]) summary_ &= ~(uint64_t{1} << (slot >> 6));
  }
  // The first occupied slot at or after the base's, going round (summary_ ≠ 0).
  uint32_t next_slot() const {
    const auto start = static_cast<uint32_t>(base_ & kMask);
    const uint32_t w0 = start >> 6;
    // The base's own word, from the base's bit up.
    if (const uint64_t bits = words_[w0] & (~uint64_t{0} << (start & 63)))
      return (w0 << 6) | static_cast<uint32_t>(std::countr_zero(bits));
    // The words after it, then round from the first (the base's own word last: its bits
    // below the base's).
    const uint64_t after = w0 == 63 ? 0 : summary_ & (~uint64_t{0} << (w0 + 1));
    const uint32_t w = static_cast<uint32_t>(std::countr_zero(after ? after : summary_));
    return (w << 6) | static_cast<uint32_t>(std::countr_zero(words_[w]));
  }

  uint64_t base_ = 0;
  uint64_t summary_ = 0;  // bit w: words_[w] has a slot in use
  std::array<uint64_t, kWords> words_{};
  std::vector<uint32_t> head_;  // [slot]: its first node, kNone if empty
  std::vector<Node> nodes_;     // slots' lists, and the free list through free_
  uint32_t free_ = kNone;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> far_;
};

}  // namespace fcswitch::lab

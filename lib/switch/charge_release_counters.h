#pragma once
// Byte counts that one task raises and several tasks lower, kept single-writer: the
// charging task owns `charged`, each releasing task owns its own row of `released`, and a
// reader takes charged − Σ released. No atomic read-modify-write, no lock, and each
// releaser's row sits on its own cache lines. Counts are monotonic uint64: the difference
// is right across wrap-around.
//
// Used for the per-(ingress port, priority) occupancy that PFC/GFC watch (charged by FWD,
// released by the TX task of whichever port the packet leaves by), the lossy pool, and each
// port's egress queue depths (charged by FWD, released by that port's TX task).

#include <cstdint>
#include <memory>

#include "core/owned_counter.h"

namespace fcswitch {

class ChargeReleaseCounters {
 public:
  ChargeReleaseCounters(int slots, int releasers);

  // Writer: the charging task.
  void charge(int slot, uint64_t bytes) { charged_[slot].add(bytes); }
  // Writer: releaser `releaser` only. Made with one releaser, every caller's releases go to
  // its one row: the releasing tasks share a thread (SwitchState's `one_thread`).
  void release(int releaser, int slot, uint64_t bytes) {
    released_[releaser * releaser_stride_ + slot].add(bytes);
  }

  // Any thread. Inline: FWD reads a queue's once a burst (and on a refusal), TX per poll.
  uint64_t value(int slot) const {
    // Released first: every release it counts was charged before, so the charge read after
    // it includes that charge and the difference never goes below zero.
    const uint64_t out = released(slot);
    return charged(slot) - out;
  }
  uint64_t charged(int slot) const { return charged_[slot].read(); }
  // Σ over the releasers: O(releasers) loads. A charger may keep it a while and take
  // charged() − that as an upper bound of value(), since releases only grow.
  uint64_t released(int slot) const {
    if (releasers_ == 1) return released_[slot].read();  // an egress port's depths: its TX
    uint64_t sum = 0;
    for (int r = 0; r < releasers_; ++r) sum += released_[r * stride_ + slot].read();
    return sum;
  }
  // True when every slot's charges have all been released: an idle TX task asks this of its
  // port's egress depths once per poll instead of each queue's value() in turn.
  bool all_released() const {
    for (int slot = 0; slot < slots_; ++slot)
      if (value(slot)) return false;
    return true;
  }
  // The slots whose value() is not zero, a bit each (slots ≤ 32): a TX task asks which of its
  // queues hold anything in one pass, not a branch a queue.
  uint32_t nonzero_mask() const {
    uint32_t mask = 0;
    for (int slot = 0; slot < slots_; ++slot)
      mask |= static_cast<uint32_t>(value(slot) != 0) << slot;
    return mask;
  }
  int slots() const { return slots_; }

 private:
  int slots_;
  int releasers_;
  int stride_;           // slots rounded up to a whole number of cache lines
  int releaser_stride_;  // stride_, or 0 with one releaser
  std::unique_ptr<OwnedCounter[]> charged_;
  std::unique_ptr<OwnedCounter[]> released_;
};

}  // namespace fcswitch

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
  // Writer: releaser `releaser` only.
  void release(int releaser, int slot, uint64_t bytes) {
    released_[releaser * stride_ + slot].add(bytes);
  }

  // Any thread. Inline: FWD reads an egress depth per lossy packet.
  uint64_t value(int slot) const {
    uint64_t released = 0;
    for (int r = 0; r < releasers_; ++r) released += released_[r * stride_ + slot].read();
    return charged_[slot].read() - released;
  }
  uint64_t charged(int slot) const { return charged_[slot].read(); }
  int slots() const { return slots_; }

 private:
  int slots_;
  int releasers_;
  int stride_;  // slots rounded up to a whole number of cache lines
  std::unique_ptr<OwnedCounter[]> charged_;
  std::unique_ptr<OwnedCounter[]> released_;
};

}  // namespace fcswitch

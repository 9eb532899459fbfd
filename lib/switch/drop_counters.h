#pragma once
// Drops by (port, reason), owned by one task. The switch's total for a (port, reason) is the
// sum over its tasks.

#include <memory>

#include "core/owned_counter.h"
#include "switch/drop_reasons.h"

namespace fcswitch {

class DropCounters {
 public:
  explicit DropCounters(int ports)
      : ports_(ports), counters_(std::make_unique<OwnedCounter[]>(ports * kNumDropReasons)) {}

  void add(int port, DropReason reason, uint64_t packets = 1) {
    counters_[port * kNumDropReasons + static_cast<int>(reason)].add(packets);
  }
  uint64_t read(int port, DropReason reason) const {
    return counters_[port * kNumDropReasons + static_cast<int>(reason)].read();
  }
  uint64_t total() const {
    uint64_t sum = 0;
    for (int i = 0; i < ports_ * kNumDropReasons; ++i) sum += counters_[i].read();
    return sum;
  }

 private:
  int ports_;
  std::unique_ptr<OwnedCounter[]> counters_;
};

}  // namespace fcswitch

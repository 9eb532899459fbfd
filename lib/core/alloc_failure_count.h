#pragma once
// Frames a task could not allocate (its pool ran dry): its own count, and the node's tally
// beside it (SwitchState::alloc_failures), which the lab's schedule reads as one word a node
// instead of every task's count. The tally is bumped with a relaxed atomic: only on the rare
// path where an allocation failed, by any of the node's threads.

#include <atomic>
#include <cstdint>

#include "core/owned_counter.h"

namespace fcswitch {

class AllocFailureCount {
 public:
  // `node_tally`: null for none (a task on its own, in a test).
  explicit AllocFailureCount(std::atomic<uint64_t>* node_tally = nullptr) : tally_(node_tally) {}

  void increment() {
    own_.increment();
    if (tally_) tally_->fetch_add(1, std::memory_order_relaxed);
  }
  uint64_t read() const { return own_.read(); }

 private:
  OwnedCounter own_;
  std::atomic<uint64_t>* tally_;
};

}  // namespace fcswitch

#pragma once
// Bytes waiting in each egress queue of a switch by the (ingress port, priority) they arrived
// on: which queues an ingress's packets wait in, the edges of the lab's deadlock wait-for graph
// (lab/deadlock_detector.h). Charged by FWD (or a lab host's source), released by TX(egress
// port): one writer for each count, any reader.
//
// One table for the switch, queue and priority outermost: the counts a network uses (its few
// priorities and queues, every pair of ports) lie together in a few pages, and the rest, never
// written, takes no memory (core/zero_pages.h). Kept a port at a time, ingress × priority ×
// queue innermost, each port's counts were 9 KB charged and 9 KB released at 16 ports, all of
// them written at construction: 94 MB in a k = 16 fat-tree.

#include <atomic>
#include <cstdint>

#include "core/traffic_class.h"
#include "core/zero_pages.h"

namespace fcswitch {

class QueuedFromCounters {
 public:
  explicit QueuedFromCounters(int ports);

  // Writer: the charging task.
  void charge(int egress_port, int queue, int ingress_port, int priority, uint64_t bytes) {
    add(charged_[index(egress_port, queue, ingress_port, priority)], bytes);
  }
  // Writer: TX(egress_port).
  void release(int egress_port, int queue, int ingress_port, int priority, uint64_t bytes) {
    add(released_[index(egress_port, queue, ingress_port, priority)], bytes);
  }
  // Any thread. Released first: every release it counts was charged before, so the difference
  // never goes below zero (as ChargeReleaseCounters::value).
  uint64_t value(int egress_port, int queue, int ingress_port, int priority) const {
    const size_t i = index(egress_port, queue, ingress_port, priority);
    const uint64_t out = read(released_[i]);
    return read(charged_[i]) - out;
  }
  const ZeroPages& storage() const { return pages_; }

 private:
  size_t index(int egress_port, int queue, int ingress_port, int priority) const {
    return ((static_cast<size_t>(queue) * kNumPriorities + static_cast<size_t>(priority)) *
                static_cast<size_t>(ports_) +
            static_cast<size_t>(egress_port)) *
               row_ +
           static_cast<size_t>(ingress_port);
  }
  // As OwnedCounter, on words the mapping made zero.
  static void add(uint64_t& word, uint64_t n) {
    std::atomic_ref<uint64_t> ref(word);
    ref.store(ref.load(std::memory_order_relaxed) + n, std::memory_order_release);
  }
  static uint64_t read(uint64_t& word) {
    return std::atomic_ref<uint64_t>(word).load(std::memory_order_acquire);
  }

  int ports_;
  // Each egress port's row of ingress counts starts a cache line: TX tasks on other lcores
  // write other lines.
  size_t row_;
  ZeroPages pages_;
  uint64_t* charged_;
  uint64_t* released_;
};

}  // namespace fcswitch

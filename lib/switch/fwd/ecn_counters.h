#pragma once
// ECN's counters of one switch (RFC 3168), per (egress port, queue), slot port * 8 + queue:
// what FWD did to the packets that joined a queue with a marking profile. FWD is the only
// writer; the metrics, reports and the lab read them.

#include <cstdint>
#include <memory>

#include "core/owned_counter.h"
#include "core/traffic_class.h"

namespace fcswitch {

class EcnCounters {
 public:
  enum Kind : int {
    kMarked,     // the draw said mark and the packet was ECT(0)/ECT(1): now CE
    kNotEct,     // the draw said mark but the packet was Not-ECT (or not IP): sent unmarked
    kCeArrived,  // CE already (marked upstream): left CE, no draw
    kKinds,
  };

  explicit EcnCounters(int ports)
      : counters_(std::make_unique<OwnedCounter[]>(ports * kNumPriorities * kKinds)) {}

  void increment(Kind kind, int port, int queue) {
    counters_[index(kind, port, queue)].increment();
  }
  void add(Kind kind, int port, int queue, uint64_t n) {
    counters_[index(kind, port, queue)].add(n);
  }
  uint64_t read(Kind kind, int port, int queue) const {
    return counters_[index(kind, port, queue)].read();
  }

 private:
  static int index(Kind kind, int port, int queue) {
    return (port * kNumPriorities + queue) * kKinds + kind;
  }

  std::unique_ptr<OwnedCounter[]> counters_;
};

}  // namespace fcswitch

#pragma once
// PABO's counters of one switch (PABO §II), per (port, priority), slot port * 8 + priority.
// FWD is the only writer; the metrics, reports and the lab read them.

#include <cstdint>
#include <memory>

#include "core/owned_counter.h"
#include "core/traffic_class.h"

namespace fcswitch {

class PaboCounters {
 public:
  enum Kind : int {
    kBounced,         // sent back out of this port (it leads to the packet's source)
    kArrivedBounced,  // received on this port with n_p > 0
    kReforwarded,     // n_p > 0, forwarded on (not bounced again) out of this port
    kNormalFull,      // dropped: this port's normal sub-queue had no room
    kBounceFull,      // dropped: this port's bounce sub-queue had no room for a bounce
    kKinds,
  };

  explicit PaboCounters(int ports)
      : ports_(ports),
        counters_(std::make_unique<OwnedCounter[]>(ports * kNumPriorities * kKinds)) {}

  void increment(Kind kind, int port, int priority) { at(kind, port, priority).increment(); }
  uint64_t read(Kind kind, int port, int priority) const {
    return counters_[index(kind, port, priority)].read();
  }

 private:
  int index(Kind kind, int port, int priority) const {
    return (kind * ports_ + port) * kNumPriorities + priority;
  }
  OwnedCounter& at(Kind kind, int port, int priority) {
    return counters_[index(kind, port, priority)];
  }

  int ports_;
  std::unique_ptr<OwnedCounter[]> counters_;
};

}  // namespace fcswitch

#pragma once
// τ as a budget at run time. Each port's response_time is the τ its thresholds were chosen for
// (PFC's headroom C·τ, GFC's B_m − 2Cτ and Theorem 5.1's bound). A running switch measures τ
// two ways: after each XOFF, at the port's input (fc/response_time_meter.h), and as the longest
// time its RX, FWD and TX went unpolled (Task::note_poll_gap: a thread that lost its CPU hears
// no feedback and sends none, which adds to τ whatever the wire does). Once a second the
// control thread asks check(): a port whose τ of the last interval (the meter's p99 over the
// interval's samples, or the longest poll gap) exceeded its budget counts a second over budget,
// keeps the worst τ seen, and gets one line saying what its engines' thresholds no longer
// cover (fc::EngineParams::tau_breaks).

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/owned_counter.h"
#include "core/traffic_class.h"
#include "fc/response_time_meter.h"

namespace fcswitch {

class SwitchNode;

class ResponseTimeBudget {
 public:
  explicit ResponseTimeBudget(int ports);

  // Control thread, about once a second: one line for each port over budget in the interval
  // since the last call (empty when every port kept within its response_time).
  std::vector<std::string> check(SwitchNode& node);

  // Any thread.
  uint64_t seconds_over(int port) const { return ports_[port].seconds_over.read(); }
  uint64_t worst_ns(int port) const { return ports_[port].worst_ns.read(); }
  // τ of the last interval: the larger of the meter's p99 and the longest poll gap.
  uint64_t last_ns(int port) const { return ports_[port].last_ns.read(); }
  // Control thread (the report, after the run): what the worst interval broke.
  const std::string& worst_breaks(int port) const { return ports_[port].worst_breaks; }

 private:
  struct Port {
    // The meters' bucket counts at the last check, per priority; made at the first check that
    // has a meter (10 KB a port, which a lab of thousands of ports never checks).
    std::unique_ptr<
        std::array<std::array<uint64_t, fc::ResponseTimeMeter::kBuckets>, kNumPriorities>>
        seen;
    OwnedCounter seconds_over;
    OwnedGauge worst_ns;
    OwnedGauge last_ns;
    std::string worst_breaks;
  };
  // The p99 of the samples `meter` took since `seen`, and how many; `seen` becomes now's.
  static uint64_t interval_p99_ns(const fc::ResponseTimeMeter& meter,
                                  std::array<uint64_t, fc::ResponseTimeMeter::kBuckets>& seen,
                                  uint64_t& samples);

  std::vector<Port> ports_;
};

}  // namespace fcswitch

#pragma once
// τ as it happens at a receiver (GFC §5.4: the time from a receiver's feedback decision to the
// change reaching its input). Measured for pauses: from the moment a generator decides XOFF
// to the last frame of that priority that arrives before the input goes quiet — the frames
// the upstream had on the wire and committed past its gate (its NIC TX ring, a TX burst), and
// those it sent while the pause was on its way. An XON before the input went quiet ends the
// measurement without a sample (counted as unfinished: the upstream never stopped).
//
// Quiet means no frame for `quiet_ticks` (a few maximum frame times at the port's rate): an
// upstream whose own supply pauses that long before it is stopped is read as stopped then,
// which can only make τ look shorter.
//
// One writer (the TX task that runs the generator); readers use the counters' acquire loads.
// Samples go into a histogram of 1 µs buckets below 128 µs and power-of-two buckets above
// (core/latency_histogram.h).

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/latency_histogram.h"
#include "core/owned_counter.h"
#include "core/tick_rate.h"

namespace fcswitch::fc {

class ResponseTimeMeter {
 public:
  static constexpr int kLinearBuckets = LatencyHistogram::kLinearBuckets;
  static constexpr int kBuckets = LatencyHistogram::kBuckets;

  ResponseTimeMeter(const TickRate& ticks, uint64_t quiet_ticks)
      : ticks_(ticks), quiet_ticks_(quiet_ticks), histogram_(kNsPerUs) {}

  // The generator decided XOFF at `now`.
  void on_pause(uint64_t now_ticks);
  // ... and XON at `now`; `last_arrival_ticks` as in observe().
  void on_resume(uint64_t now_ticks, uint64_t last_arrival_ticks);
  // While paused, after each arrival and at any other time: `last_arrival_ticks` is when the
  // latest frame of the priority arrived (0: none yet).
  void observe(uint64_t now_ticks, uint64_t last_arrival_ticks);

  // Between a pause and the input going quiet: observe() then watches the clock.
  bool measuring() const { return measuring_; }
  uint64_t samples() const { return histogram_.samples(); }
  uint64_t unfinished() const { return unfinished_.read(); }
  uint64_t sum_ns() const { return histogram_.sum(); }
  uint64_t max_ns() const { return histogram_.max(); }
  // The largest sample since the last call: one watcher's interval (node/response_time_budget.h).
  // A sample taken while it reads may go to either interval.
  uint64_t take_recent_max_ns() const {
    return recent_max_ns_.exchange(0, std::memory_order_relaxed);
  }
  uint64_t bucket(int i) const { return histogram_.bucket(i); }
  // The upper bound of bucket i, in ns (the last one: max_ns()).
  uint64_t bucket_upper_ns(int i) const { return histogram_.bucket_upper(i); }
  // The q-quantile (0 < q ≤ 1) as the upper bound of its bucket, capped at the largest
  // sample; 0 without samples. Any thread.
  uint64_t quantile_ns(double q) const { return histogram_.quantile(q); }

 private:
  static constexpr uint64_t kNsPerUs = 1000;

  // When the input goes quiet if nothing more arrives: quiet_ticks after the last frame seen
  // since the decision, or after the decision itself.
  uint64_t quiet_at_ticks() const {
    return std::max(seen_arrival_ticks_, paused_at_) + quiet_ticks_;
  }

  TickRate ticks_;
  uint64_t quiet_ticks_;
  uint64_t paused_at_ = 0;
  uint64_t seen_arrival_ticks_ = 0;  // the last arrival observe() saw before the input went quiet
  bool measuring_ = false;
  LatencyHistogram histogram_;                      // in ns
  mutable std::atomic<uint64_t> recent_max_ns_{0};  // take_recent_max_ns's
  OwnedCounter unfinished_;
};

}  // namespace fcswitch::fc

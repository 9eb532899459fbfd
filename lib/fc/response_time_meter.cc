#include "fc/response_time_meter.h"

#include <algorithm>
#include <bit>

namespace fcswitch::fc {

namespace {
constexpr uint64_t kNsPerUs = 1000;
}  // namespace

void ResponseTimeMeter::on_pause(uint64_t now_ticks) {
  paused_at_ = now_ticks;
  measuring_ = true;
}

void ResponseTimeMeter::on_resume(uint64_t now_ticks, uint64_t last_arrival_ticks) {
  observe(now_ticks, last_arrival_ticks);
  if (measuring_) unfinished_.increment();
  measuring_ = false;
}

void ResponseTimeMeter::observe(uint64_t now_ticks, uint64_t last_arrival_ticks) {
  if (!measuring_) return;
  // Nothing arrived since the decision: the upstream had stopped already; no τ to see.
  if (last_arrival_ticks < paused_at_) {
    if (now_ticks - paused_at_ >= quiet_ticks_) measuring_ = false;
    return;
  }
  if (now_ticks - last_arrival_ticks < quiet_ticks_) return;
  record(ticks_.to_ns(last_arrival_ticks - paused_at_));
  measuring_ = false;
}

void ResponseTimeMeter::record(uint64_t tau_ns) {
  const uint64_t us = tau_ns / kNsPerUs;
  int i = 0;
  if (us < kLinearBuckets) {
    i = static_cast<int>(us);
  } else {
    // 2^(7+j) ≤ us < 2^(8+j)
    const int j = std::bit_width(us) - 8;
    i = kLinearBuckets + std::min(j, kLogBuckets - 1);
  }
  buckets_[i].increment();
  samples_.increment();
  sum_ns_.add(tau_ns);
  if (tau_ns > max_ns_.read()) max_ns_.set(tau_ns);
}

uint64_t ResponseTimeMeter::bucket_upper_ns(int i) const {
  if (i < kLinearBuckets) return static_cast<uint64_t>(i + 1) * kNsPerUs;
  if (i == kBuckets - 1) return max_ns();
  return (uint64_t{1} << (8 + i - kLinearBuckets)) * kNsPerUs;
}

uint64_t ResponseTimeMeter::quantile_ns(double q) const {
  const uint64_t n = samples();
  if (n == 0) return 0;
  const auto rank = static_cast<uint64_t>(q * static_cast<double>(n) + 0.999999);
  uint64_t seen = 0;
  for (int i = 0; i < kBuckets; ++i) {
    seen += bucket(i);
    if (seen >= rank) return std::min(bucket_upper_ns(i), max_ns());
  }
  return max_ns();
}

}  // namespace fcswitch::fc

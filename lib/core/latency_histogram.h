#pragma once
// A histogram of durations with one writer and any number of readers: `kLinearBuckets`
// buckets of one `unit` each from 0, then `kLogBuckets` buckets that double, the last one
// open. Values are in whatever the writer counts (ns, ticks); `unit` is in the same. Used for
// τ at an input (fc/response_time_meter.h, 1 µs units) and for the time a frame spends inside
// the switch (TxTask, ~100 ns units in TSC ticks), where it is written for every packet: the
// bucket comes from a multiply by a fixed-point reciprocal, not a division.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "core/owned_counter.h"

namespace fcswitch {

class LatencyHistogram {
 public:
  static constexpr int kLinearBuckets = 128;  // [k, k + 1) units
  static constexpr int kLogBuckets = 24;      // [2^(7+j), 2^(8+j)) units, the last one open
  static constexpr int kBuckets = kLinearBuckets + kLogBuckets;

  explicit LatencyHistogram(uint64_t unit)
      : unit_(std::max<uint64_t>(unit, 1)),
        linear_limit_(unit_ * kLinearBuckets),
        // ⌈2^32 / unit⌉: value · reciprocal >> 32 is ⌊value / unit⌋ exactly for every value
        // below linear_limit_ while the rounding error, under linear_limit_ / 2^32, stays
        // below 1/unit: 128 · unit² < 2^32, unit < 5793. Larger units divide.
        reciprocal_(unit_ < kMaxReciprocalUnit ? ((uint64_t{1} << 32) + unit_ - 1) / unit_ : 0) {}

  // Writer only: one value; the totals come separately (add_totals), once per batch.
  void record_bucket(uint64_t value, uint64_t count = 1) { buckets_[bucket_of(value)].add(count); }
  void add_totals(uint64_t count, uint64_t sum, uint64_t max) {
    samples_.add(count);
    sum_.add(sum);
    if (max > max_.read()) max_.set(max);
  }
  void record(uint64_t value) {
    record_bucket(value);
    add_totals(1, value, value);
  }

  int bucket_of(uint64_t value) const {
    if (value < linear_limit_)
      return static_cast<int>(reciprocal_ ? (value * reciprocal_) >> 32 : value / unit_);
    // 2^(7+j) ≤ value / unit < 2^(8+j)
    const int j = std::bit_width(value / unit_) - 8;
    return kLinearBuckets + std::min(j, kLogBuckets - 1);
  }

  // Any thread.
  uint64_t samples() const { return samples_.read(); }
  uint64_t sum() const { return sum_.read(); }
  uint64_t max() const { return max_.read(); }
  uint64_t bucket(int i) const { return buckets_[i].read(); }
  // The upper bound of bucket i (the last one: max()).
  uint64_t bucket_upper(int i) const {
    if (i < kLinearBuckets) return static_cast<uint64_t>(i + 1) * unit_;
    if (i == kBuckets - 1) return max();
    return (uint64_t{1} << (8 + i - kLinearBuckets)) * unit_;
  }
  // The q-quantile (0 < q ≤ 1) as the upper bound of its bucket, capped at the largest
  // value; 0 without samples.
  uint64_t quantile(double q) const {
    const uint64_t n = samples();
    if (n == 0) return 0;
    const auto rank = static_cast<uint64_t>(q * static_cast<double>(n) + 0.999999);
    uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
      seen += bucket(i);
      if (seen >= rank) return std::min(bucket_upper(i), max());
    }
    return max();
  }

 private:
  static constexpr uint64_t kMaxReciprocalUnit = 5793;

  uint64_t unit_;
  uint64_t linear_limit_;
  uint64_t reciprocal_;
  std::array<OwnedCounter, kBuckets> buckets_;
  OwnedCounter samples_;
  OwnedCounter sum_;
  OwnedGauge max_;
};

}  // namespace fcswitch

// The duration histogram behind τ and the time inside the switch: bucket edges with hand-made
// numbers, the reciprocal that replaces a division per packet, quantiles.

#include <gtest/gtest.h>

#include "core/latency_histogram.h"

namespace fcswitch {
namespace {

TEST(LatencyHistogram, LinearBucketsOfOneUnitThenDoubling) {
  LatencyHistogram h(250);  // 100 ns in ticks of a 2.5 GHz TSC
  EXPECT_EQ(h.bucket_of(0), 0);
  EXPECT_EQ(h.bucket_of(249), 0);
  EXPECT_EQ(h.bucket_of(250), 1);
  EXPECT_EQ(h.bucket_of(128 * 250 - 1), 127);
  EXPECT_EQ(h.bucket_of(128 * 250), 128);  // [2^7, 2^8) units
  EXPECT_EQ(h.bucket_of(256 * 250 - 1), 128);
  EXPECT_EQ(h.bucket_of(256 * 250), 129);
  EXPECT_EQ(h.bucket_of(UINT64_MAX / 2), LatencyHistogram::kBuckets - 1);  // the open one
  EXPECT_EQ(h.bucket_upper(0), 250u);
  EXPECT_EQ(h.bucket_upper(128), 256u * 250u);
}

// The multiply-shift must agree with the division at every value of the linear range, for
// the units in use (1 µs in ns, 100 ns at common TSC rates) and at the largest unit it serves.
TEST(LatencyHistogram, ReciprocalIsExactDivisionInTheLinearRange) {
  for (uint64_t unit : {1ull, 7ull, 100ull, 250ull, 300ull, 1000ull, 5792ull, 5793ull, 100000ull}) {
    const LatencyHistogram h(unit);
    for (uint64_t v = 0; v < 128 * unit; v += (unit > 1000 ? 13 : 1))
      ASSERT_EQ(h.bucket_of(v), static_cast<int>(v / unit)) << "unit " << unit << " value " << v;
  }
}

TEST(LatencyHistogram, QuantileIsTheUpperBoundOfItsBucketCappedAtTheMax) {
  LatencyHistogram h(100);
  EXPECT_EQ(h.quantile(0.5), 0u);              // no samples
  for (int i = 0; i < 98; ++i) h.record(150);  // bucket 1: [100, 200)
  h.record(5'000);
  h.record(1'000'000);  // a log bucket: [819200, 1638400)
  EXPECT_EQ(h.samples(), 100u);
  EXPECT_EQ(h.sum(), 98u * 150u + 5'000u + 1'000'000u);
  EXPECT_EQ(h.max(), 1'000'000u);
  EXPECT_EQ(h.quantile(0.5), 200u);
  EXPECT_EQ(h.quantile(0.98), 200u);
  EXPECT_EQ(h.quantile(0.99), 5'100u);
  EXPECT_EQ(h.quantile(1.0), 1'000'000u);  // its bucket ends at 1638400: capped at the max
}

}  // namespace
}  // namespace fcswitch

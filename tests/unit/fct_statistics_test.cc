// Ideal FCT, slowdown, nearest-rank p99 and the summary by size bucket.

#include <gtest/gtest.h>

#include <vector>

#include "workload/fct_summary.h"
#include "workload/ideal_fct.h"
#include "workload/nearest_rank_percentile.h"

namespace fcswitch::workload {
namespace {

const FrameFormat kLabFrames{};  // MTU 1500, IPv4 + UDP: 1472 B of data a frame

TEST(IdealFct, FrameOverheads) {
  EXPECT_EQ(wire_bytes_of_frame(1472, kLabFrames), 1538u);  // 1500 + 14 + 4 + 20
  EXPECT_EQ(wire_bytes_of_frame(1, kLabFrames), 84u);       // padded to 64, + 20
}

TEST(IdealFct, StoreAndForwardPipelineByHand) {
  // 2 full frames (2 × 1472 B), two 10 Gb/s hops of 1 µs: (2 + 2 − 1) frames × 1538 B × 0.8 ns/B
  // + 2 µs.
  const std::vector<PathHop> equal = {{10e9, 1000}, {10e9, 1000}};
  EXPECT_DOUBLE_EQ(ideal_fct_ns(2 * 1472, equal, kLabFrames), 3 * 1538 * 0.8 + 2000);
  // One byte on one hop: one 84-byte frame, 67.2 ns, plus propagation.
  EXPECT_DOUBLE_EQ(ideal_fct_ns(1, {{10e9, 500}}, kLabFrames), 84 * 0.8 + 500);
  // 10 Gb/s then 1 Gb/s: frame 0 done at 1230.4 + 12304; frame 1 waits for it at the slow hop.
  const std::vector<PathHop> slower = {{10e9, 0}, {1e9, 0}};
  EXPECT_DOUBLE_EQ(ideal_fct_ns(2 * 1472, slower, kLabFrames), 1538 * 0.8 + 2 * 1538 * 8.0);
  // A short last frame: 1472 + 100 B, equal hops: frame 0 on both hops, then the 100-byte frame
  // (166 B on the wire) behind it: 2 × 1230.4 + 166 × 0.8.
  EXPECT_DOUBLE_EQ(ideal_fct_ns(1572, {{10e9, 0}, {10e9, 0}}, kLabFrames),
                   2 * 1538 * 0.8 + 166 * 0.8);
  EXPECT_THROW(ideal_fct_ns(0, equal, kLabFrames), std::invalid_argument);
  EXPECT_THROW(ideal_fct_ns(10, {}, kLabFrames), std::invalid_argument);
}

TEST(IdealFct, AnIdealFlowHasSlowdownExactlyOne) {
  const std::vector<PathHop> path = {{100e9, 600}, {400e9, 600}, {400e9, 600}, {100e9, 600}};
  for (uint64_t size : {1ull, 1472ull, 51'100ull, 30'000'000ull}) {
    const double ideal = ideal_fct_ns(size, path, kLabFrames);
    EXPECT_EQ(slowdown(ideal, ideal), 1.0) << size;
  }
  EXPECT_DOUBLE_EQ(slowdown(300, 100), 3.0);
}

TEST(NearestRankPercentile, HandMadeLists) {
  std::vector<double> hundred;
  for (int i = 100; i >= 1; --i) hundred.push_back(i);  // unsorted on purpose
  EXPECT_EQ(nearest_rank_percentile(hundred, 99), 99);  // rank ceil(99) = 99
  EXPECT_EQ(nearest_rank_percentile(hundred, 100), 100);
  EXPECT_EQ(nearest_rank_percentile({15, 20, 35, 40, 50}, 30), 20);  // rank ceil(1.5) = 2
  EXPECT_EQ(nearest_rank_percentile({15, 20, 35, 40, 50}, 50), 35);  // rank ceil(2.5) = 3
  EXPECT_EQ(nearest_rank_percentile({3, 1, 2, 10, 5, 4, 9, 6, 8, 7}, 99), 10);  // rank 10
  EXPECT_EQ(nearest_rank_percentile({7}, 1), 7);
  EXPECT_THROW(nearest_rank_percentile({}, 99), std::invalid_argument);
  EXPECT_THROW(nearest_rank_percentile({1}, 0), std::invalid_argument);
}

TEST(FctSummary, BucketsByDecimalSizeEdges) {
  const std::vector<FlowRecord> flows = {
      {1'000, 200, 100},
      {9'999, 300, 100},       // < 10 KB: slowdowns 2, 3
      {10'000, 1'000, 1'000},  // 10 KB – 100 KB: the edge is in
      {2'000'000, 8'000, 2'000},
      {5'000'000, 20'000, 4'000}  // ≥ 1 MB: slowdowns 4, 5
  };
  const auto stats = summarize_by_size(flows, kDefaultBucketEdgesBytes);
  ASSERT_EQ(stats.size(), 4u);
  EXPECT_EQ(stats[0].upper_bytes, 10'000u);
  EXPECT_EQ(stats[0].count, 2u);
  EXPECT_DOUBLE_EQ(stats[0].mean_fct_ns, 250);
  EXPECT_DOUBLE_EQ(stats[0].p99_fct_ns, 300);
  EXPECT_DOUBLE_EQ(stats[0].mean_slowdown, 2.5);
  EXPECT_DOUBLE_EQ(stats[0].p99_slowdown, 3);
  EXPECT_EQ(stats[1].count, 1u);
  EXPECT_DOUBLE_EQ(stats[1].mean_slowdown, 1);
  EXPECT_EQ(stats[2].count, 0u);
  EXPECT_DOUBLE_EQ(stats[2].mean_fct_ns, 0);
  EXPECT_EQ(stats[3].lower_bytes, 1'000'000u);
  EXPECT_EQ(stats[3].upper_bytes, UINT64_MAX);
  EXPECT_EQ(stats[3].count, 2u);
  EXPECT_DOUBLE_EQ(stats[3].mean_slowdown, 4.5);
  EXPECT_DOUBLE_EQ(stats[3].p99_slowdown, 5);
  const std::vector<uint64_t> bad_edges = {100, 100};
  EXPECT_THROW(summarize_by_size(flows, bad_edges), std::invalid_argument);
}

}  // namespace
}  // namespace fcswitch::workload

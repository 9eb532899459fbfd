// Poisson arrivals (rate and burstiness), GFC's other-rack destination choice and closed loop.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "workload/closed_loop_workload.h"
#include "workload/flow_size_cdf.h"
#include "workload/other_rack_host_picker.h"
#include "workload/poisson_arrivals.h"

namespace fcswitch::workload {
namespace {

TEST(PoissonArrivals, RateFollowsLoadLinkRateAndMeanSize) {
  // λ = load × C / (8 × mean): 0.8 × 100 Gb/s / (8 × 1 MB) = 10 000 flows/s.
  EXPECT_DOUBLE_EQ(poisson_rate_per_s(0.8, 100e9, 1e6), 10'000);
  EXPECT_DOUBLE_EQ(poisson_rate_per_s(0.5, 10e9, 1250), 500'000);
}

TEST(PoissonArrivals, RateWithinTwoPercentAndExponentialGaps) {
  const double rate_per_s = poisson_rate_per_s(0.8, 10e9, 1665830.8);  // web search on 10G
  PoissonArrivals arrivals(rate_per_s, 42, 1'000);
  constexpr int kArrivals = 100'000;
  std::vector<double> gaps_ns;
  gaps_ns.reserve(kArrivals);
  int64_t previous_ns = 1'000;
  for (int i = 0; i < kArrivals; ++i) {
    const int64_t t = arrivals.next_ns();
    ASSERT_GE(t, previous_ns);
    gaps_ns.push_back(static_cast<double>(t - previous_ns));
    previous_ns = t;
  }
  const double span_s = static_cast<double>(previous_ns - 1'000) * 1e-9;
  EXPECT_NEAR(kArrivals / span_s / rate_per_s, 1.0, 0.02);
  double sum = 0, sum_sq = 0;
  for (double g : gaps_ns) sum += g;
  const double mean = sum / kArrivals;
  for (double g : gaps_ns) sum_sq += (g - mean) * (g - mean);
  const double cv = std::sqrt(sum_sq / (kArrivals - 1)) / mean;
  EXPECT_NEAR(cv, 1.0, 0.02);  // exponential: standard deviation = mean
  EXPECT_NEAR(mean, arrivals.mean_interarrival_ns(), 0.02 * arrivals.mean_interarrival_ns());
}

TEST(PoissonArrivals, SameSeedSameTimes) {
  PoissonArrivals a(1e6, 5), b(1e6, 5), c(1e6, 6);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const int64_t ta = a.next_ns();
    ASSERT_EQ(ta, b.next_ns());
    differs = differs || ta != c.next_ns();
  }
  EXPECT_TRUE(differs);
}

TEST(OtherRackHostPicker, PicksEveryHostOfOtherRacksUniformly) {
  // Racks given out of order: hosts 0, 3 in rack 7; 1, 4 in rack 2; 2, 5 in rack 9.
  const OtherRackHostPicker picker({7, 2, 9, 7, 2, 9});
  std::mt19937_64 rng(1);
  std::map<int, int> counts;
  constexpr int kDraws = 40'000;
  for (int i = 0; i < kDraws; ++i) {
    const int h = picker.pick(3, rng);
    ASSERT_NE(picker.rack_of(h), 7);
    ++counts[h];
  }
  ASSERT_EQ(counts.size(), 4u);  // 1, 2, 4, 5
  for (const auto& [host, n] : counts) EXPECT_NEAR(n, kDraws / 4, kDraws / 4 * 0.05) << host;
  EXPECT_THROW(OtherRackHostPicker({1, 1, 1}), std::invalid_argument);
}

TEST(ClosedLoopWorkload, OneFlowPerHostAndTheNextStartsWhenOneEnds) {
  // GFC §6.2.3: every host has one flow at a time to a host in another rack.
  const FlowSizeCdf sizes = FlowSizeCdf::parse("1000 0.5\n2000 1\n", "t.cdf");
  ClosedLoopWorkload workload(sizes, OtherRackHostPicker({0, 0, 1, 1, 2, 2}), 3);
  const auto first = workload.first_flows(500);
  ASSERT_EQ(first.size(), 6u);
  for (int h = 0; h < 6; ++h) {
    EXPECT_EQ(first[h].source_host, h);
    EXPECT_NE(first[h].destination_host / 2, h / 2);  // another rack
    EXPECT_EQ(first[h].start_ns, 500);
    EXPECT_GE(first[h].size_bytes, 1000u);
    EXPECT_LE(first[h].size_bytes, 2000u);
  }
  const FlowRequest next = workload.next_flow(4, 123'456);
  EXPECT_EQ(next.source_host, 4);
  EXPECT_EQ(next.start_ns, 123'456);
  EXPECT_NE(next.destination_host / 2, 2);

  // A host's flows do not depend on other hosts' completions.
  ClosedLoopWorkload again(sizes, OtherRackHostPicker({0, 0, 1, 1, 2, 2}), 3);
  again.first_flows(500);
  again.next_flow(1, 10);  // another host finishing first changes nothing for host 4
  const FlowRequest same = again.next_flow(4, 123'456);
  EXPECT_EQ(same.destination_host, next.destination_host);
  EXPECT_EQ(same.size_bytes, next.size_bytes);
}

}  // namespace
}  // namespace fcswitch::workload

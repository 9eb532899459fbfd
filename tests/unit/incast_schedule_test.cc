// Pyrrha's periodic N-to-1 incasts: N flows, sizes in MTUs, the period that gives the load.

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "workload/incast_schedule.h"
#include "workload/other_rack_host_picker.h"

namespace fcswitch::workload {
namespace {

// Pyrrha §6's Clos: 10 ToRs of 16 hosts.
std::vector<int> pyrrha_racks() {
  std::vector<int> racks;
  for (int h = 0; h < 160; ++h) racks.push_back(h / 16);
  return racks;
}

TEST(IncastSchedule, PeriodGivesTheLoadAtTheDestination) {
  const IncastParams p;  // 720-to-1, 30–40 MTUs of 1460 B, load 0.5 at 100 Gb/s
  EXPECT_DOUBLE_EQ(incast_mean_flow_bytes(p), 35 * 1460);
  // 720 × 51 100 B × 8 / (0.5 × 100e9 b/s) = 5 886.72 µs.
  EXPECT_EQ(incast_period_ns(p), 5'886'720);
  // Bytes of one incast over one period is the load times the link rate.
  EXPECT_NEAR(p.senders * incast_mean_flow_bytes(p) * 8 / (incast_period_ns(p) * 1e-9),
              p.load * p.link_rate_bps, 1);
}

TEST(IncastSchedule, NSendersOutsideTheRackAtEachPeriod) {
  IncastParams p;
  p.incasts = 3;
  p.start_ns = 1'000;
  const OtherRackHostPicker picker(pyrrha_racks());
  const auto incasts = incast_schedule(p, {0, 16}, picker, 11);
  ASSERT_EQ(incasts.size(), 3u);
  const int64_t period_ns = incast_period_ns(p);
  uint64_t bytes = 0, flows = 0;
  for (size_t i = 0; i < incasts.size(); ++i) {
    const Incast& incast = incasts[i];
    EXPECT_EQ(incast.start_ns, 1'000 + static_cast<int64_t>(i) * period_ns);
    EXPECT_EQ(incast.destination_host, i % 2 == 0 ? 0 : 16);
    ASSERT_EQ(incast.flows.size(), 720u);
    std::set<int> sizes_mtus;
    for (const FlowRequest& f : incast.flows) {
      EXPECT_EQ(f.destination_host, incast.destination_host);
      EXPECT_NE(f.source_host / 16, incast.destination_host / 16);
      EXPECT_GE(f.start_ns, incast.start_ns);
      EXPECT_LT(f.start_ns, incast.start_ns + p.jitter_ns);
      ASSERT_EQ(f.size_bytes % 1460, 0u);
      sizes_mtus.insert(static_cast<int>(f.size_bytes / 1460));
      bytes += f.size_bytes;
      ++flows;
    }
    EXPECT_EQ(*sizes_mtus.begin(), 30);
    EXPECT_EQ(*sizes_mtus.rbegin(), 40);
  }
  EXPECT_NEAR(static_cast<double>(bytes) / flows, 35 * 1460, 0.02 * 35 * 1460);
  EXPECT_THROW(incast_schedule(p, {}, picker, 1), std::invalid_argument);
}

}  // namespace
}  // namespace fcswitch::workload

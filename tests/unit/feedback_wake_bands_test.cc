#include "switch/feedback_wake_bands.h"

#include <gtest/gtest.h>

#include "core/traffic_class.h"

namespace fcswitch {
namespace {

int slot(int port, int priority) {
  return port * kNumPriorities + priority;  // SwitchState::occupancy_slot
}

// Before TX(p) publishes, every change at p is news to it: each charge and each burst wakes
// it, as without the bands.
TEST(FeedbackWakeBands, UntilPublishedEveryChangeWakes) {
  const FeedbackWakeBands bands(3);
  for (int port = 0; port < 3; ++port) {
    EXPECT_TRUE(bands.wakes_on_any_input(port));
    for (int priority = 0; priority < kNumPriorities; ++priority)
      for (uint64_t occupancy : {uint64_t{0}, uint64_t{1'500}, fc::OccupancyBand::kUnboundedBytes})
        EXPECT_TRUE(bands.leaves_band(slot(port, priority), occupancy));
  }
}

// A band is [low, high): PFC out of XOFF at XOFF = 100 KB is quiet up to 99 999 bytes, and
// wakes at XOFF itself. Another port's or priority's band is its own.
TEST(FeedbackWakeBands, AChangeWakesWhereItLeavesItsOwnBand) {
  FeedbackWakeBands bands(2);
  for (int priority = 0; priority < kNumPriorities; ++priority) {
    bands.publish(0, priority, fc::OccupancyBand::any_occupancy());
    bands.publish(1, priority, fc::OccupancyBand::any_occupancy());
  }
  bands.publish(1, 3, fc::OccupancyBand{0, 100'000});
  EXPECT_FALSE(bands.leaves_band(slot(1, 3), 0));
  EXPECT_FALSE(bands.leaves_band(slot(1, 3), 99'999));
  EXPECT_TRUE(bands.leaves_band(slot(1, 3), 100'000));
  EXPECT_FALSE(bands.leaves_band(slot(1, 4), 100'000));  // no generator: never news
  EXPECT_FALSE(bands.leaves_band(slot(0, 3), 100'000));
  // In XOFF, XON = 90 KB: quiet from XON up, news below it.
  bands.publish(1, 3, fc::OccupancyBand{90'000, fc::OccupancyBand::kUnboundedBytes});
  EXPECT_TRUE(bands.leaves_band(slot(1, 3), 89'999));
  EXPECT_FALSE(bands.leaves_band(slot(1, 3), 90'000));
  EXPECT_FALSE(bands.leaves_band(slot(1, 3), 5'000'000));
  EXPECT_FALSE(bands.wakes_on_any_input(1));
}

// An empty band (a resend after a link came back, a τ meter measuring a pause) makes every
// burst from the port news until a band is published again, whatever the other priorities'.
TEST(FeedbackWakeBands, AnEmptyBandWakesOnAnyInputOfItsPort) {
  FeedbackWakeBands bands(2);
  for (int port = 0; port < 2; ++port)
    for (int priority = 0; priority < kNumPriorities; ++priority)
      bands.publish(port, priority, fc::OccupancyBand::any_occupancy());
  ASSERT_FALSE(bands.wakes_on_any_input(0));
  bands.publish(0, 3, fc::OccupancyBand::any_change());
  bands.publish(0, 5, fc::OccupancyBand::any_change());
  EXPECT_TRUE(bands.wakes_on_any_input(0));
  EXPECT_FALSE(bands.wakes_on_any_input(1));
  EXPECT_TRUE(bands.leaves_band(slot(0, 3), 0));
  bands.publish(0, 3, fc::OccupancyBand{0, 100'000});
  EXPECT_TRUE(bands.wakes_on_any_input(0));  // priority 5's is still empty
  bands.publish(0, 5, fc::OccupancyBand::any_occupancy());
  EXPECT_FALSE(bands.wakes_on_any_input(0));
}

}  // namespace
}  // namespace fcswitch

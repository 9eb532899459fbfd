// The gate watchdog: detection at exactly `detect` of blocked time, the alert-only default,
// and the acting modes standing down after `restore` of open gate.

#include <gtest/gtest.h>

#include "fc/gate_watchdog.h"

namespace fcswitch::fc {
namespace {

const TickRate kNs{};

TEST(GateWatchdog, ReportsAQueueBlockedForDetectTime) {
  GateWatchdog dog(WatchdogConfig{100, 50, WatchdogAction::kAlert}, kNs);
  EXPECT_EQ(dog.observe(0, true, true), WatchdogEvent::kNone);
  EXPECT_EQ(dog.next_action_ticks(), 100u);
  EXPECT_EQ(dog.observe(99, true, true), WatchdogEvent::kNone);
  EXPECT_EQ(dog.observe(100, true, true), WatchdogEvent::kStormDetected);
  EXPECT_EQ(dog.storms(), 1u);
  EXPECT_FALSE(dog.forwarding());
  EXPECT_FALSE(dog.dropping());
  EXPECT_EQ(dog.observe(500, true, true), WatchdogEvent::kNone);  // once per storm
  EXPECT_EQ(dog.observe(501, false, true), WatchdogEvent::kRestored);
  EXPECT_EQ(dog.storms(), 1u);
}

TEST(GateWatchdog, APausedButEmptyQueueIsNoStorm) {
  GateWatchdog dog(WatchdogConfig{100, 50, WatchdogAction::kAlert}, kNs);
  dog.observe(0, true, true);
  dog.observe(50, true, false);  // drained: the clock starts again
  EXPECT_EQ(dog.observe(120, true, true), WatchdogEvent::kNone);
  EXPECT_EQ(dog.observe(219, true, true), WatchdogEvent::kNone);
  EXPECT_EQ(dog.observe(220, true, true), WatchdogEvent::kStormDetected);
}

TEST(GateWatchdog, ForwardsUntilTheGateStaysOpenForRestoreTime) {
  GateWatchdog dog(WatchdogConfig{100, 50, WatchdogAction::kForward}, kNs);
  dog.observe(0, true, true);
  ASSERT_EQ(dog.observe(100, true, true), WatchdogEvent::kStormDetected);
  EXPECT_TRUE(dog.forwarding());
  dog.observe(150, false, false);
  dog.observe(180, true, false);  // paused again: restore clock restarts
  EXPECT_EQ(dog.observe(200, false, false), WatchdogEvent::kNone);
  EXPECT_EQ(dog.observe(249, false, false), WatchdogEvent::kNone);
  EXPECT_EQ(dog.observe(250, false, false), WatchdogEvent::kRestored);
  EXPECT_FALSE(dog.forwarding());
  EXPECT_EQ(dog.restores(), 1u);
}

TEST(GateWatchdog, DropsWhileActing) {
  GateWatchdog dog(WatchdogConfig{10, 10, WatchdogAction::kDrop}, kNs);
  dog.observe(0, true, true);
  dog.observe(10, true, true);
  EXPECT_TRUE(dog.dropping());
}

TEST(GateWatchdog, ZeroDetectTimeTurnsItOff) {
  GateWatchdog dog(WatchdogConfig{0, 0, WatchdogAction::kDrop}, kNs);
  EXPECT_EQ(dog.observe(1'000'000'000, true, true), WatchdogEvent::kNone);
  EXPECT_EQ(dog.observe(2'000'000'000, true, true), WatchdogEvent::kNone);
  EXPECT_FALSE(dog.dropping());
}

}  // namespace
}  // namespace fcswitch::fc

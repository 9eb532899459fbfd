#include "lab/timer_wheel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace fcswitch::lab {
namespace {

using Taken = std::vector<std::pair<uint64_t, uint32_t>>;  // (ticks, item), sorted

Taken take_due(TimerWheel& wheel, uint64_t now) {
  Taken taken;
  wheel.take_due(now, [&](const TimerWheel::Entry& e) { taken.emplace_back(e.ticks, e.item); });
  std::sort(taken.begin(), taken.end());
  return taken;
}

const auto kAllLive = [](const TimerWheel::Entry&) { return true; };

TEST(TimerWheel, GivesTheEarliestAndTakesWhatIsDue) {
  TimerWheel wheel;
  EXPECT_EQ(wheel.next_live_ticks(kAllLive), kNeverTicks);
  wheel.add(700, 1);
  wheel.add(30, 2);
  wheel.add(30, 3);
  wheel.add(TimerWheel::kSlots + 9, 4);  // beyond the wheel: the far heap
  EXPECT_EQ(wheel.next_live_ticks(kAllLive), 30u);
  EXPECT_EQ(take_due(wheel, 29), Taken{});
  EXPECT_EQ(take_due(wheel, 30), (Taken{{30, 2}, {30, 3}}));
  EXPECT_EQ(wheel.next_live_ticks(kAllLive), 700u);
  EXPECT_EQ(take_due(wheel, 5000), (Taken{{700, 1}, {TimerWheel::kSlots + 9, 4}}));
  EXPECT_EQ(wheel.next_live_ticks(kAllLive), kNeverTicks);
}

TEST(TimerWheel, ATimerBeforeTheBaseIsPlacedAtTheBaseWithItsOwnTicks) {
  TimerWheel wheel;
  EXPECT_EQ(take_due(wheel, 100), Taken{});
  wheel.add(50, 7);  // already due when armed
  EXPECT_EQ(wheel.next_live_ticks(kAllLive), 100u);
  EXPECT_EQ(take_due(wheel, 101), (Taken{{50, 7}}));
}

TEST(TimerWheel, GoesRoundTheEndOfItsSlots) {
  TimerWheel wheel;
  const uint64_t base = TimerWheel::kSlots - 6;  // the base's slot near the last one
  EXPECT_EQ(take_due(wheel, base), Taken{});
  wheel.add(base + 20, 1);  // a slot past the wheel's end, from its first
  wheel.add(base + 3, 2);
  EXPECT_EQ(wheel.next_live_ticks(kAllLive), base + 3);
  EXPECT_EQ(take_due(wheel, base + 3), (Taken{{base + 3, 2}}));
  EXPECT_EQ(wheel.next_live_ticks(kAllLive), base + 20);
  EXPECT_EQ(take_due(wheel, base + 20), (Taken{{base + 20, 1}}));
}

TEST(TimerWheel, DropsStaleEntriesOnItsWayToTheEarliestLiveOne) {
  TimerWheel wheel;
  std::map<uint32_t, uint64_t> armed = {{1, 40}, {2, 9000}};
  wheel.add(10, 1);  // item 1 re-armed from 10 to 40: its entry at 10 is stale
  wheel.add(40, 1);
  wheel.add(20, 2);  // item 2 re-armed to 9 000, beyond the wheel
  wheel.add(9000, 2);
  const auto live = [&](const TimerWheel::Entry& e) { return armed[e.item] == e.ticks; };
  EXPECT_EQ(wheel.next_live_ticks(live), 40u);
  EXPECT_EQ(take_due(wheel, 40), (Taken{{40, 1}}));  // the stale ones went first
  EXPECT_EQ(wheel.next_live_ticks(live), 9000u);
}

// Against a list of every arming: the earliest live timer (or the base, for one before it)
// and the entries taken at each step are the same.
TEST(TimerWheel, AgreesWithEveryArmingKeptInAList) {
  std::mt19937_64 random(7);
  TimerWheel wheel;
  std::map<uint32_t, uint64_t> armed;  // item → its live ticks
  const auto live = [&](const TimerWheel::Entry& e) {
    const auto it = armed.find(e.item);
    return it != armed.end() && it->second == e.ticks;
  };
  uint64_t now = 0;
  for (int step = 0; step < 20'000; ++step) {
    for (int i = 0; i < 3; ++i) {
      const auto item = static_cast<uint32_t>(random() % 64);
      // Mostly within a few µs, some far, some already due.
      const uint64_t r = random() % 10;
      const uint64_t ticks = r == 0   ? now - std::min<uint64_t>(now, random() % 50)
                             : r == 1 ? now + TimerWheel::kSlots + random() % 20'000
                                      : now + random() % 3000;
      armed[item] = ticks;
      wheel.add(ticks, item);
    }
    uint64_t expected = kNeverTicks;
    for (const auto& [item, ticks] : armed) expected = std::min(expected, std::max(ticks, now));
    ASSERT_EQ(wheel.next_live_ticks(live), expected) << "step " << step;
    const uint64_t next = std::max(expected == kNeverTicks ? now + 1 : expected, now + 1);
    Taken expected_live;
    for (const auto& [item, ticks] : armed)
      if (ticks <= next) expected_live.emplace_back(ticks, item);
    std::sort(expected_live.begin(), expected_live.end());
    // As the schedule: a live entry disarms its item, so an item armed at the same ticks
    // twice (at T, then later, then at T again) is taken once.
    Taken due_live;
    for (const auto& [ticks, item] : take_due(wheel, next)) {
      if (const auto it = armed.find(item); it != armed.end() && it->second == ticks) {
        due_live.emplace_back(ticks, item);
        armed.erase(it);
      }
    }
    ASSERT_EQ(due_live, expected_live) << "step " << step;
    now = next;
  }
}

}  // namespace
}  // namespace fcswitch::lab

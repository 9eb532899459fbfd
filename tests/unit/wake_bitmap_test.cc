#include "lab/wake_bitmap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace fcswitch::lab {
namespace {

std::vector<size_t> drained(WakeBitmap& set) {
  std::vector<size_t> items;
  set.drain([&](size_t item) { items.push_back(item); });
  return items;
}

TEST(WakeBitmap, DrainsEachItemOnceInAscendingOrderAndEmpties) {
  WakeBitmap set(200);
  EXPECT_TRUE(set.empty());
  for (size_t item : {130u, 7u, 64u, 199u, 7u, 63u}) set.set(item);
  EXPECT_EQ(set.count(), 5u);
  EXPECT_TRUE(set.test(64));
  EXPECT_FALSE(set.test(65));
  EXPECT_EQ(drained(set), (std::vector<size_t>{7, 63, 64, 130, 199}));
  EXPECT_TRUE(set.empty());
  EXPECT_FALSE(set.test(7));
  EXPECT_EQ(drained(set), std::vector<size_t>{});
}

// Past 4 096 items the summary takes a second word: a fat-tree k = 16 has 6 144 links.
TEST(WakeBitmap, MatchesASortedListOfDistinctItemsOverManyRounds) {
  constexpr size_t kItems = 6144;
  WakeBitmap next(kItems), round(kItems);
  std::mt19937 random(7);
  std::uniform_int_distribution<size_t> any(0, kItems - 1);
  for (int r = 0; r < 200; ++r) {
    std::vector<size_t> expected;
    const int wakes = r % 50;
    for (int i = 0; i < wakes; ++i) {
      const size_t item = i % 7 == 0 ? kItems - 1 : any(random);
      next.set(item);
      expected.push_back(item);
    }
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    round.swap(next);
    EXPECT_TRUE(next.empty());
    EXPECT_EQ(round.count(), expected.size());
    // An item the drain's caller wakes goes to the next round, not this one.
    std::vector<size_t> got;
    round.drain([&](size_t item) {
      got.push_back(item);
      next.set(item);
    });
    EXPECT_EQ(got, expected);
    EXPECT_EQ(next.count(), expected.size());
    next.drain([](size_t) {});
  }
}

}  // namespace
}  // namespace fcswitch::lab

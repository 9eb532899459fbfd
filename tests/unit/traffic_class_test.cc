// The priority and queue masks' walks: each set bit once, in the order the crossbar and the
// TX task rely on (lowest first; highest first for strict priority).

#include <gtest/gtest.h>

#include <vector>

#include "core/traffic_class.h"

namespace fcswitch {
namespace {

std::vector<int> walked(PriorityMask mask, bool descending) {
  std::vector<int> bits;
  const auto note = [&](int bit) { bits.push_back(bit); };
  if (descending) {
    for_each_set_descending(mask, note);
  } else {
    for_each_set(mask, note);
  }
  return bits;
}

TEST(TrafficClass, MaskWalksVisitEachSetBitInOrder) {
  EXPECT_EQ(walked(0b1010'0110, false), (std::vector<int>{1, 2, 5, 7}));
  EXPECT_EQ(walked(0b1010'0110, true), (std::vector<int>{7, 5, 2, 1}));
  EXPECT_EQ(walked(0xff, true), (std::vector<int>{7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_TRUE(walked(0, true).empty());
  EXPECT_TRUE(walked(0, false).empty());
  std::vector<int> queues;
  for_each_set_descending(QueueMask{1u << 8 | 1u}, [&](int q) { queues.push_back(q); });
  EXPECT_EQ(queues, (std::vector<int>{8, 0}));  // the ninth queue, above the priorities
}

}  // namespace
}  // namespace fcswitch

#include "switch/port_wake_set.h"

#include <gtest/gtest.h>

#include <vector>

namespace fcswitch {
namespace {

std::vector<int> walk(const PortWakeSet& set, int first, int ports) {
  std::vector<int> seen;
  set.for_each_from(first, ports, [&](int port) { seen.push_back(port); });
  return seen;
}

// FWD serves its marked inputs in turn from the poll's first: the same order as a test of
// every port from there round, across words and with the last word partly used.
TEST(PortWakeSet, WalksTheMarkedPortsRoundFromTheFirst) {
  PortWakeSet set;
  set.enable(130);
  for (int port : {0, 5, 63, 64, 100, 129}) set.mark(port);
  EXPECT_EQ(walk(set, 0, 130), (std::vector<int>{0, 5, 63, 64, 100, 129}));
  EXPECT_EQ(walk(set, 64, 130), (std::vector<int>{64, 100, 129, 0, 5, 63}));
  EXPECT_EQ(walk(set, 101, 130), (std::vector<int>{129, 0, 5, 63, 64, 100}));
  EXPECT_EQ(walk(set, 63, 130), (std::vector<int>{63, 64, 100, 129, 0, 5}));
  // Every first port: what a port-by-port test from it finds.
  for (int first = 0; first < 130; ++first) {
    std::vector<int> expected;
    for (int i = 0; i < 130; ++i)
      if (set.marked((first + i) % 130)) expected.push_back((first + i) % 130);
    EXPECT_EQ(walk(set, first, 130), expected) << "from " << first;
  }
  // The walker may clear the port it is given, and mark it again: neither is seen twice.
  std::vector<int> seen;
  set.for_each_from(5, 130, [&](int port) {
    seen.push_back(port);
    set.clear(port);
    if (port == 100) set.mark(port);
  });
  EXPECT_EQ(seen, (std::vector<int>{5, 63, 64, 100, 129, 0}));
  EXPECT_EQ(walk(set, 0, 130), (std::vector<int>{100}));
}

// The lab polls a switch's marked TX tasks in port order, and a TX poll marks the ports whose
// inputs it changed: as a test of every port in turn, a mark ahead of the walk is polled in
// the same walk, one behind it (or on the port itself) in the next.
TEST(PortWakeSet, AscendingWalkSeesMarksAheadOfIt) {
  PortWakeSet set;
  set.enable(130);
  set.mark_all();  // bits past port 129 are set too, and never walked
  std::vector<int> seen;
  set.for_each_ascending(130, [&](int port) {
    seen.push_back(port);
    set.clear(port);
  });
  ASSERT_EQ(seen.size(), 130u);
  EXPECT_EQ(seen.back(), 129);
  for (int port : {3, 63, 70}) set.mark(port);
  seen.clear();
  set.for_each_ascending(130, [&](int port) {
    seen.push_back(port);
    set.clear(port);
    if (port == 3) set.mark(10), set.mark(2), set.mark(3);  // ahead, behind, itself
    if (port == 63) set.mark(64), set.mark(129);            // the next word, the last port
  });
  EXPECT_EQ(seen, (std::vector<int>{3, 10, 63, 64, 70, 129}));
  std::vector<int> left;
  set.for_each_ascending(130, [&](int port) { left.push_back(port); });
  EXPECT_EQ(left, (std::vector<int>{2, 3}));
}

}  // namespace
}  // namespace fcswitch

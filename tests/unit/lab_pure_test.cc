// The lab's pure parts: the wait-for graph's cycle search, the flow frames' stamp and Reorder
// Density's displacement.

#include <gtest/gtest.h>

#include "lab/wait_for_graph.h"
#include "traffic/flow_frame.h"
#include "traffic/reorder_density.h"
#include "wire/big_endian.h"

namespace fcswitch::lab {
namespace {

TEST(WaitForGraph, NoCycleInAChainOrATree) {
  EXPECT_TRUE(find_cycle({}).empty());
  EXPECT_TRUE(find_cycle({{1}, {2}, {}}).empty());
  EXPECT_TRUE(find_cycle({{1, 2}, {3}, {3}, {}}).empty());  // two paths to one vertex
}

TEST(WaitForGraph, FindsTheRingInWaitOrder) {
  // 0 → 1 → 2 → 0, the GFC ring's three queues; 3 waits on the ring but is not in it.
  const auto cycle = find_cycle({{1}, {2}, {0}, {0}});
  EXPECT_EQ(cycle, (std::vector<int>{0, 1, 2}));
}

TEST(WaitForGraph, FindsACycleBehindAnAcyclicPart) {
  // 0 → 1 → 2 → 3 → 2: the cycle is {2, 3}, not the path leading to it.
  EXPECT_EQ(find_cycle({{1}, {2}, {3}, {2}}), (std::vector<int>{2, 3}));
  EXPECT_EQ(find_cycle({{}, {1}}), (std::vector<int>{1}));  // a queue waiting on itself
}

TEST(FlowFrame, StampRoundTripsAndHeadersAreValid) {
  FlowFrameSpec spec{wire::MacAddress{0x020000000003ull},
                     wire::MacAddress{0x020000000001ull},
                     0x0A000101,
                     0x0A000301,
                     24,
                     7,
                     1514};
  auto frame = make_flow_frame(spec);
  ASSERT_EQ(frame.size(), 1514u);
  stamp_flow_sequence(frame.data(), 0x0102030405ull);
  const auto stamp = read_flow_stamp(frame.data(), frame.size());
  ASSERT_TRUE(stamp);
  EXPECT_EQ(stamp->flow, 7u);
  EXPECT_EQ(stamp->sequence, 0x0102030405ull);
  EXPECT_EQ(frame[15], 24 << 2);                        // DSCP 24 = priority 3
  EXPECT_EQ(wire::load_be16(frame.data() + 16), 1500);  // IPv4 total length
  EXPECT_EQ(wire::load_be16(frame.data() + 38), 1480);  // UDP length
  // RFC 1071: the header sums to 0xFFFF with its checksum in place.
  uint32_t sum = 0;
  for (int i = 14; i < 34; i += 2) sum += wire::load_be16(frame.data() + i);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  EXPECT_EQ(sum, 0xFFFFu);
}

TEST(FlowFrame, ForeignFramesHaveNoStamp) {
  auto frame = make_flow_frame(FlowFrameSpec{});
  frame[42] = 'X';  // not our magic
  EXPECT_FALSE(read_flow_stamp(frame.data(), frame.size()));
  EXPECT_FALSE(read_flow_stamp(frame.data(), 50));  // too short for a stamp
}

TEST(ReorderDensity, DisplacementIsReceiveIndexMinusSendIndex) {
  // PABO Eq. 5 on the arrival order 0, 2, 3, 1, 4: frame 1 is 2 late, frames 2 and 3 one early.
  const uint64_t arrivals[] = {0, 2, 3, 1, 4};
  const uint64_t expected[] = {0, 1, 1, 2, 0};
  for (uint64_t r = 0; r < 5; ++r)
    EXPECT_EQ(displacement_magnitude(r, arrivals[r]), expected[r]) << "receive index " << r;
}

TEST(ReorderDensity, BucketsAreLog2OfTheMagnitude) {
  EXPECT_EQ(displacement_bucket(0), 0);
  EXPECT_EQ(displacement_bucket(1), 1);
  EXPECT_EQ(displacement_bucket(2), 2);
  EXPECT_EQ(displacement_bucket(3), 2);
  EXPECT_EQ(displacement_bucket(4), 3);
  EXPECT_EQ(displacement_bucket(95), 7);  // PABO Fig. 12's largest with PABO: 64–127
  EXPECT_EQ(displacement_bucket(127), 7);
  EXPECT_EQ(displacement_bucket(128), kDisplacementBuckets - 1);
  EXPECT_EQ(displacement_bucket(UINT64_MAX), kDisplacementBuckets - 1);
}

}  // namespace
}  // namespace fcswitch::lab

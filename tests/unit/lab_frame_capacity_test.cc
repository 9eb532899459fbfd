// The data frames a lab network can hold (lab/lab_frame_capacity.h), counted by hand on a
// two-switch line, and the pool fclab suggests from it (larger_lab_pool).

#include "lab/lab_frame_capacity.h"

#include <gtest/gtest.h>

#include <string>

namespace fcswitch::lab {
namespace {

constexpr uint64_t kLineRateBps = 10'000'000'000;
constexpr PriorityMask kLosslessThree = 1 << 3;

// H0 - S0 - S1 - H1: three ports a switch (host, peer, one unused), the host links without
// delay, S0 - S1 of 10 µs: 12 500 bytes a direction, 25 frames of 500 bytes. H0 sends 1 000-byte
// frames in lossless priority 3, H1 500-byte frames in lossy priority 0.
LabScenario two_switch_line() {
  LabScenario s;
  for (int i = 0; i < 2; ++i) {
    LabNode sw;
    sw.name = "S" + std::to_string(i);
    sw.config.ports.resize(3);
    sw.config.lossless_priorities = kLosslessThree;
    sw.config.buffer.lossless_ingress_bytes = 100'000;
    sw.config.buffer.lossy_pool_bytes = 50'000;
    sw.config.egress_queue_packets = 16384;
    s.nodes.push_back(sw);
  }
  for (int i = 0; i < 2; ++i) {
    LabNode host;
    host.name = "H" + std::to_string(i);
    host.host = true;
    host.config.ports.resize(1);
    s.nodes.push_back(host);
    s.links.push_back({{2 + i, 0}, {i, 0}, kLineRateBps, 0});
  }
  s.links.push_back({{0, 1}, {1, 1}, kLineRateBps, 10'000});
  s.tx_ring_frames = 4;
  FlowSpec lossless;
  lossless.src = 2;
  lossless.dst = 3;
  lossless.priority = 3;
  lossless.frame_bytes = 1000;
  FlowSpec lossy;
  lossy.src = 3;
  lossy.dst = 2;
  lossy.priority = 0;
  lossy.frame_bytes = 500;
  s.flows = {lossless, lossy};
  return s;
}

TEST(LabFrameCapacity, CountsBuffersWiresAndHostQueuesAtTheSmallestFrame) {
  const LabFrameCapacity c = lab_frame_capacity(two_switch_line(), 64);
  EXPECT_EQ(c.frame_bytes, 500u);
  // A switch: 3 ports × 1 lossless priority × 100 000 / 500 = 600, the lossy pool's
  // 50 000 / 500 = 100, and 3 TX rings of 4.
  EXPECT_EQ(c.switch_frames, 2u * (600 + 100 + 12));
  EXPECT_EQ(c.wire_frames, 2u * 25);
  // A host: one priority it sends × 64 ahead of TX, and its TX ring of 4.
  EXPECT_EQ(c.host_frames, 2u * (64 + 4));
  EXPECT_EQ(c.total(), 1424u + 50 + 136);
}

TEST(LabFrameCapacity, EgressQueuesBoundASwitchWithLargeBuffers) {
  LabScenario s = two_switch_line();
  for (int i = 0; i < 2; ++i) s.nodes[static_cast<size_t>(i)].config.egress_queue_packets = 10;
  // 3 ports × 2 priorities sent × 10 frames, under the buffers' 700; the TX rings beside.
  EXPECT_EQ(lab_frame_capacity(s, 64).switch_frames, 2u * (60 + 12));
}

TEST(LabFrameCapacity, ALosslessOnlyNetworkHasNoLossyPool) {
  LabScenario s = two_switch_line();
  s.flows.pop_back();  // H0's 1 000-byte lossless frames only
  const LabFrameCapacity c = lab_frame_capacity(s, 64);
  EXPECT_EQ(c.frame_bytes, 1000u);
  EXPECT_EQ(c.switch_frames, 2u * (3 * 100 + 12));
  // H1 sends nothing: only its TX ring.
  EXPECT_EQ(c.host_frames, 64u + 4 + 4);
}

// Tagger may move H0's frames to any lossless priority of S1's: 3 and 5 there.
TEST(LabFrameCapacity, ASwitchThatRunsTaggerHoldsEachOfItsLosslessPriorities) {
  LabScenario s = two_switch_line();
  s.flows.pop_back();  // 1 000-byte lossless frames only
  LabNode& tagged = s.nodes[1];
  tagged.config.tagger.emplace();
  tagged.config.lossless_priorities = (1 << 3) | (1 << 5);
  // S0: 3 ports × 100 frames; S1: 3 ports × 2 priorities × 100; TX rings beside.
  EXPECT_EQ(lab_frame_capacity(s, 64).switch_frames, (300u + 12) + (600 + 12));
}

TEST(LabFrameCapacity, TheSuggestedPoolDoublesUntilTheNetworkFits) {
  EXPECT_EQ(larger_lab_pool(1023), 2047u);
  EXPECT_EQ(larger_lab_pool(1023, 2047), 2047u);
  EXPECT_EQ(larger_lab_pool(1023, 5000), 8191u);
  EXPECT_EQ(larger_lab_pool(262143, 434432), 524287u);
  EXPECT_EQ(larger_lab_pool(kMaxLabMbufs / 2 + 1), kMaxLabMbufs);
  EXPECT_EQ(larger_lab_pool(1023, 10'000'000), kMaxLabMbufs);
}

}  // namespace
}  // namespace fcswitch::lab

#include "switch/egress_scheduler.h"

#include <gtest/gtest.h>

#include <vector>

namespace fcswitch {
namespace {

constexpr QueueMask bit(int q) {
  return static_cast<QueueMask>(1u << q);
}

std::array<uint32_t, kNumEgressQueues> all_heads(uint32_t bytes) {
  std::array<uint32_t, kNumEgressQueues> h;
  h.fill(bytes);
  return h;
}

// TX takes a run of packets from a queue that is the only eligible one: the scheduler must end
// where picking them one by one would have left it, so that the next contended pick is the same.
TEST(EgressScheduler, ARunFromTheOnlyEligibleQueueEqualsPicksOneByOne) {
  SchedulerConfig config;
  config.weights[2] = 3;
  const std::vector<uint32_t> run = {60, 1514, 700, 1514, 1514, 64, 9000, 100, 1514, 60};
  EgressScheduler by_run(config), by_pick(config);
  // Some history first, on two contending queues.
  for (EgressScheduler* s : {&by_run, &by_pick})
    for (int i = 0; i < 5; ++i) s->on_sent(s->pick(bit(2) | bit(5), all_heads(1000)), 1000);
  by_run.take_run(5, run.data(), static_cast<int>(run.size()));
  for (uint32_t bytes : run) {
    std::array<uint32_t, kNumEgressQueues> heads = all_heads(0);
    heads[5] = bytes;
    ASSERT_EQ(by_pick.pick(bit(5), heads), 5);
    by_pick.on_sent(5, bytes);
  }
  for (int q = 0; q < kNumEgressQueues; ++q)
    EXPECT_EQ(by_run.deficit_bytes(q), by_pick.deficit_bytes(q)) << "queue " << q;
  // And the next contended picks agree.
  for (int i = 0; i < 20; ++i) {
    const int a = by_run.pick(bit(2) | bit(5), all_heads(800));
    ASSERT_EQ(a, by_pick.pick(bit(2) | bit(5), all_heads(800))) << "pick " << i;
    by_run.on_sent(a, 800);
    by_pick.on_sent(a, 800);
  }
}

TEST(EgressScheduler, StrictQueuesGoFirstHighestPriorityFirst) {
  SchedulerConfig config;
  config.strict_queues = bit(7) | bit(3) | bit(kLossyQueue);
  EgressScheduler s(config);
  const auto heads = all_heads(1000);
  EXPECT_EQ(s.pick(bit(3) | bit(7) | bit(1), heads), 7);
  EXPECT_EQ(s.pick(bit(3) | bit(1), heads), 3);
  EXPECT_EQ(s.pick(bit(kLossyQueue) | bit(1), heads), kLossyQueue);  // strict beats DWRR
  EXPECT_EQ(s.pick(bit(1), heads), 1);
  EXPECT_EQ(s.pick(0, heads), EgressScheduler::kNone);
}

TEST(EgressScheduler, LossyQueueRanksBelowPriorityZero) {
  SchedulerConfig config;
  config.strict_queues = bit(0) | bit(kLossyQueue);
  EgressScheduler s(config);
  EXPECT_EQ(s.pick(bit(0) | bit(kLossyQueue), all_heads(64)), 0);
}

// Backlogged queues with weights 1:2:3 and mixed packet sizes share bytes 1:2:3.
TEST(EgressScheduler, DwrrSharesFollowWeights) {
  SchedulerConfig config;
  config.weights = {1, 2, 3, 1, 1, 1, 1, 1, 1};
  EgressScheduler s(config);
  const QueueMask backlogged = bit(0) | bit(1) | bit(2);
  const std::array<uint32_t, 3> sizes = {64, 1500, 9000};
  std::array<uint64_t, 3> sent{};
  std::array<int, 3> next{};
  std::array<uint32_t, kNumEgressQueues> heads{};
  for (int q = 0; q < 3; ++q) heads[q] = sizes[q % 3];
  for (int i = 0; i < 200000; ++i) {
    const int q = s.pick(backlogged, heads);
    ASSERT_GE(q, 0);
    ASSERT_LT(q, 3);
    sent[q] += heads[q];
    s.on_sent(q, heads[q]);
    heads[q] = sizes[++next[q] % 3];  // each queue cycles through the three sizes
  }
  const double total = static_cast<double>(sent[0] + sent[1] + sent[2]);
  EXPECT_NEAR(sent[0] / total, 1.0 / 6, 0.005);
  EXPECT_NEAR(sent[1] / total, 2.0 / 6, 0.005);
  EXPECT_NEAR(sent[2] / total, 3.0 / 6, 0.005);
}

// A queue that is not eligible (paused) is skipped and earns nothing meanwhile; an emptied
// queue forfeits its deficit.
TEST(EgressScheduler, IneligibleQueuesAreSkippedAndEmptyOnesForfeitDeficit) {
  SchedulerConfig config;
  config.quantum_bytes_per_weight = 1000;
  EgressScheduler s(config);
  auto heads = all_heads(600);
  EXPECT_EQ(s.pick(bit(0) | bit(1), heads), 0);
  s.on_sent(0, 600);  // deficit 400 < 600: next pick moves on
  EXPECT_EQ(s.pick(bit(0) | bit(1), heads), 1);
  s.on_sent(1, 600);
  EXPECT_EQ(s.pick(bit(1), heads), 1);  // queue 0 paused: only 1 is served
  EXPECT_EQ(s.deficit_bytes(0), 400u);  // and 0 earned nothing while paused
  s.on_empty(0);
  EXPECT_EQ(s.deficit_bytes(0), 0u);
}

TEST(EgressScheduler, PacketLargerThanOneQuantumStillGoesOut) {
  SchedulerConfig config;
  config.quantum_bytes_per_weight = 100;
  EgressScheduler s(config);
  auto heads = all_heads(9000);
  EXPECT_EQ(s.pick(bit(4), heads), 4);
  EXPECT_GE(s.deficit_bytes(4), 9000u);
}

}  // namespace
}  // namespace fcswitch

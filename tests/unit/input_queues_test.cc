#include "switch/input_queues.h"

#include <gtest/gtest.h>

#include <vector>

namespace fcswitch {
namespace {

// Stand-ins for mbufs: the FIFOs only keep the pointers.
rte_mbuf* packet(std::vector<char>& storage, size_t i) {
  return reinterpret_cast<rte_mbuf*>(&storage[i]);
}

TEST(InputQueues, EachInputAndPriorityIsItsOwnFifoAndKeepsOrderAcrossGrowth) {
  std::vector<char> storage(1000);
  InputQueues q(3);
  const int a = InputQueues::slot(1, 3), b = InputQueues::slot(1, 5), c = InputQueues::slot(2, 3);
  EXPECT_EQ(a, 1 * kNumPriorities + 3);
  // 300 packets: past the first capacity (64) and two doublings, with pops in between so the
  // growth happens with the FIFO wrapped.
  size_t pushed = 0, popped = 0;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 100; ++i, ++pushed) q.push(a, packet(storage, pushed), 7, 3);
    for (int i = 0; i < 30; ++i, ++popped) {
      ASSERT_EQ(q.front(a).packet, packet(storage, popped));
      q.pop(a);
    }
  }
  q.push(b, packet(storage, 900), 0, 5);
  q.push(c, packet(storage, 901), 2, 8);
  EXPECT_EQ(q.packets(), pushed - popped + 2);
  EXPECT_EQ(q.pushes(), pushed + 2);  // pops do not lower it
  EXPECT_EQ(q.backlogged(1), (1 << 3) | (1 << 5));
  EXPECT_EQ(q.backlogged(2), 1 << 3);
  EXPECT_EQ(q.backlogged(0), 0);
  EXPECT_EQ(q.front(c).egress_port, 2);
  EXPECT_EQ(q.front(c).egress_queue, 8);
  while (!q.empty(a)) {
    ASSERT_EQ(q.front(a).packet, packet(storage, popped++));
    EXPECT_EQ(q.front(a).egress_port, 7);
    EXPECT_EQ(q.front(a).egress_queue, 3);
    q.pop(a);
  }
  EXPECT_EQ(popped, pushed);
  EXPECT_EQ(q.backlogged(1), 1 << 5);  // the emptied FIFO's bit is clear, the other's kept
}

// The one FIFO holding packets, while exactly one does (FwdTask's matching of one busy input).
TEST(InputQueues, NamesTheOnlyBackloggedFifo) {
  std::vector<char> storage(10);
  InputQueues q(3);
  const int a = InputQueues::slot(2, 6), b = InputQueues::slot(0, 1);
  EXPECT_EQ(q.only_backlogged_slot(), -1);
  q.push(a, packet(storage, 0), 1, 6);
  q.push(a, packet(storage, 1), 1, 6);
  EXPECT_EQ(q.only_backlogged_slot(), a);
  q.push(b, packet(storage, 2), 2, 1);
  EXPECT_EQ(q.only_backlogged_slot(), -1);
  q.pop(a);
  EXPECT_EQ(q.only_backlogged_slot(), -1);  // a still holds one
  q.pop(a);
  EXPECT_EQ(q.only_backlogged_slot(), b);
  q.pop(b);
  EXPECT_EQ(q.only_backlogged_slot(), -1);
}

// A run pushed at once lands behind what the FIFO holds, in order, across a growth; a run
// popped at once stops at a head bound elsewhere and at its limit, and the FIFO's bit clears
// only when the run empties it.
TEST(InputQueues, RunsArePushedAndPoppedInOrder) {
  std::vector<char> storage(200);
  InputQueues q(2);
  const int a = InputQueues::slot(1, 2);
  std::vector<rte_mbuf*> run;
  for (size_t i = 0; i < 70; ++i) run.push_back(packet(storage, i));
  q.push(a, run[0], 0, 2);
  q.push_run(a, run.data() + 1, 59, 0, 2);   // 60 packets for (0, 2): fits the first 64
  q.push_run(a, run.data() + 60, 10, 1, 2);  // 10 for (1, 2): the FIFO grows past 64
  EXPECT_EQ(q.packets(), 70u);
  EXPECT_EQ(q.pushes(), 70u);
  EXPECT_EQ(q.backlogged(1), 1 << 2);
  rte_mbuf* out[64];
  EXPECT_EQ(q.pop_run(a, 25, out), 25u);  // the limit
  EXPECT_EQ(std::vector<rte_mbuf*>(out, out + 25),
            std::vector<rte_mbuf*>(run.begin(), run.begin() + 25));
  EXPECT_EQ(q.pop_run(a, 64, out), 35u);  // stops where the heads go to port 1
  EXPECT_EQ(std::vector<rte_mbuf*>(out, out + 35),
            std::vector<rte_mbuf*>(run.begin() + 25, run.begin() + 60));
  EXPECT_EQ(q.backlogged(1), 1 << 2);
  EXPECT_EQ(q.front(a).egress_port, 1);
  EXPECT_EQ(q.pop_run(a, 64, out), 10u);
  EXPECT_EQ(std::vector<rte_mbuf*>(out, out + 10),
            std::vector<rte_mbuf*>(run.begin() + 60, run.end()));
  EXPECT_EQ(q.packets(), 0u);
  EXPECT_EQ(q.backlogged(1), 0);
  EXPECT_EQ(q.only_backlogged_slot(), -1);
}

TEST(InputQueues, TakeHandsBackEverythingInBatches) {
  std::vector<char> storage(200);
  InputQueues q(2);
  for (size_t i = 0; i < 150; ++i)
    q.push(InputQueues::slot(static_cast<int>(i % 2), static_cast<int>(i % 8)), packet(storage, i),
           0, 0);
  rte_mbuf* out[64];
  size_t total = 0;
  while (unsigned n = q.take(out, 64)) total += n;
  EXPECT_EQ(total, 150u);
  EXPECT_EQ(q.packets(), 0u);
  EXPECT_EQ(q.backlogged(0) | q.backlogged(1), 0);
}

}  // namespace
}  // namespace fcswitch

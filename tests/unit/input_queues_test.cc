#include "switch/fwd/input_queues.h"

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

// A run pushed at once lands behind what the FIFO holds, in order, wrapped round its end and
// across a growth; a run popped at once stops at its limit and at a head bound for another
// egress port or queue, and the FIFO's bit clears only when a run empties it.
TEST(InputQueues, RunsArePushedAndPoppedInOrder) {
  std::vector<char> storage(200);
  InputQueues q(2);
  const int a = InputQueues::slot(1, 2);
  std::vector<rte_mbuf*> p;
  for (size_t i = 0; i < 200; ++i) p.push_back(packet(storage, i));
  auto popped = [&](unsigned max, unsigned expected, size_t from) {
    rte_mbuf* out[64];
    EXPECT_EQ(q.pop_run(a, max, out), expected);
    EXPECT_EQ(std::vector<rte_mbuf*>(out, out + expected),
              std::vector<rte_mbuf*>(p.begin() + from, p.begin() + from + expected));
  };
  q.push_run(a, p.data(), 50, 0, 2);  // the first capacity is 64
  popped(40, 40, 0);
  q.push_run(a, p.data() + 50, 40, 0, 2);   // from slot 50 on: wraps past the end
  q.push_run(a, p.data() + 90, 10, 0, 3);   // the same port, another queue
  q.push_run(a, p.data() + 100, 10, 1, 3);  // 70 held: grows while wrapped
  EXPECT_EQ(q.packets(), 70u);
  EXPECT_EQ(q.pushes(), 110u);
  EXPECT_EQ(q.backlogged(1), 1 << 2);
  popped(64, 50, 40);  // to where the queue changes
  popped(4, 4, 90);    // the limit
  popped(64, 6, 94);   // to where the port changes
  EXPECT_EQ(q.backlogged(1), 1 << 2);
  EXPECT_EQ(q.front(a).egress_port, 1);
  popped(64, 10, 100);
  EXPECT_EQ(q.packets(), 0u);
  EXPECT_EQ(q.backlogged(1), 0);
  EXPECT_EQ(q.only_backlogged_slot(), -1);
}

// Heads bound for egresses that change at irregular places: each popped head names its own
// egress, across the FIFO's wrap and growth, and a push after the FIFO emptied starts afresh
// rather than joining the egress of what left.
TEST(InputQueues, EachHeadKeepsItsEgressWhereEgressesChange) {
  std::vector<char> storage(400);
  InputQueues q(1);
  const int a = InputQueues::slot(0, 4);
  // Port 1, 5 or 9 by a hash of the packet's number: runs of irregular lengths.
  auto egress_of = [](size_t i) {
    return static_cast<uint16_t>((uint32_t(i) * 2654435761u >> 12) % 3 * 4 + 1);
  };
  size_t pushed = 0, popped = 0;
  // False, with the test failed, when the head is not the next packet and its egress.
  auto pop_checked = [&] {
    const InputQueues::Head head = q.front(a);
    EXPECT_EQ(head.packet, packet(storage, popped));
    EXPECT_EQ(head.egress_port, egress_of(popped)) << "packet " << popped;
    EXPECT_EQ(head.egress_queue, 4);
    q.pop(a);
    ++popped;
    return !HasFailure();
  };
  // 120 pushed, 45 popped, three times: wrapped and grown.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 120; ++i, ++pushed)
      q.push(a, packet(storage, pushed), egress_of(pushed), 4);
    for (int i = 0; i < 45; ++i) ASSERT_TRUE(pop_checked());
  }
  while (!q.empty(a)) ASSERT_TRUE(pop_checked());
  EXPECT_EQ(popped, pushed);
  const uint16_t last = egress_of(popped - 1);
  const uint16_t other = last == 1 ? 5 : 1;
  q.push(a, packet(storage, 0), last, 4);  // bound where the last to leave went
  q.push(a, packet(storage, 1), other, 4);
  rte_mbuf* out[4];
  EXPECT_EQ(q.pop_run(a, 4, out), 1u);
  EXPECT_EQ(q.front(a).egress_port, other);
}

// A FIFO that never holds more than a few packets never grows: its rings wrap again and again,
// at the end runs leave from and at the end a push lengthens.
TEST(InputQueues, RunsWrapInAFifoThatDoesNotGrow) {
  std::vector<char> storage(10);
  InputQueues q(1);
  const int a = InputQueues::slot(0, 0);
  q.push(a, packet(storage, 0), 1, 0);
  for (int i = 0; i < 150; ++i) {
    const uint16_t e = i % 2 ? 1 : 2;
    q.push(a, packet(storage, 1), e, 0);
    q.push(a, packet(storage, 2), e, 0);  // lengthens the run just added
    q.pop(a);
    q.pop(a);
    ASSERT_EQ(q.front(a).egress_port, e) << "round " << i;
    ASSERT_EQ(q.front(a).packet, packet(storage, 2));
  }
  rte_mbuf* out[4];
  EXPECT_EQ(q.pop_run(a, 4, out), 1u);
  EXPECT_TRUE(q.empty(a));
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

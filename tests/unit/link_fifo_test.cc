#include "lab/link_fifo.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace fcswitch::lab {
namespace {

rte_mbuf* frame(uintptr_t i) {
  return reinterpret_cast<rte_mbuf*>(i * 64);  // never dereferenced
}

// What the lab's rte_rings did, on one thread: exactly `capacity` frames (not the power of
// two above it: a port's RX ring of 4095 drops the 4096th, as before), in order, a burst in
// part when only part fits, across the slots' wrap.
TEST(LinkFifo, HoldsExactlyItsCapacityInOrderAcrossTheWrap) {
  LinkFifo fifo(5);  // 8 slots
  EXPECT_TRUE(fifo.empty());
  EXPECT_EQ(fifo.free_count(), 5u);
  uintptr_t next_in = 1, next_out = 1;
  for (int round = 0; round < 20; ++round) {  // the indices pass the 8 slots many times
    rte_mbuf* burst[4] = {frame(next_in), frame(next_in + 1), frame(next_in + 2),
                          frame(next_in + 3)};
    const unsigned room = fifo.free_count();
    const unsigned put = fifo.enqueue_burst(burst, 4);
    EXPECT_EQ(put, room < 4 ? room : 4u);
    next_in += put;
    EXPECT_LE(fifo.count(), 5u);
    rte_mbuf* out[3];
    const unsigned got = fifo.dequeue_burst(out, round % 2 ? 3 : 1);
    for (unsigned i = 0; i < got; ++i) EXPECT_EQ(out[i], frame(next_out++));
  }
  while (fifo.enqueue(frame(next_in))) ++next_in;
  EXPECT_EQ(fifo.count(), 5u);
  EXPECT_EQ(fifo.free_count(), 0u);
  EXPECT_FALSE(fifo.enqueue(frame(999)));
  rte_mbuf* m;
  while (fifo.dequeue(&m)) EXPECT_EQ(m, frame(next_out++));
  EXPECT_EQ(next_out, next_in);
  EXPECT_TRUE(fifo.empty());
  EXPECT_FALSE(fifo.dequeue(&m));
  EXPECT_THROW(LinkFifo(0), std::invalid_argument);
}

// A FIFO that empties starts again at its first slot, by either way out: a link's wire that
// holds a frame or two at a time uses its first slots only, not each of its 4 096 in turn.
TEST(LinkFifo, AnEmptiedFifoStartsAgainAtItsFirstSlot) {
  LinkFifo fifo(4095);
  rte_mbuf* m;
  rte_mbuf* out[2];
  for (uintptr_t i = 1; i <= 100; ++i) {
    ASSERT_TRUE(fifo.enqueue(frame(2 * i)));
    ASSERT_TRUE(fifo.enqueue(frame(2 * i + 1)));
    EXPECT_EQ(fifo.next_slot(), 2u);
    if (i % 2) {
      ASSERT_EQ(fifo.dequeue_burst(out, 2), 2u);
      EXPECT_EQ(out[0], frame(2 * i));
      EXPECT_EQ(out[1], frame(2 * i + 1));
    } else {
      ASSERT_TRUE(fifo.dequeue(&m));
      EXPECT_EQ(m, frame(2 * i));
      EXPECT_EQ(fifo.next_slot(), 2u);  // one left: no rewind
      ASSERT_TRUE(fifo.dequeue(&m));
      EXPECT_EQ(m, frame(2 * i + 1));
    }
    EXPECT_EQ(fifo.next_slot(), 0u);
  }
}

}  // namespace
}  // namespace fcswitch::lab

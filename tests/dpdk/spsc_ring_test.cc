// dpdk::rewind_if_empty (dpdk/ring.h): an emptied ring of one thread starts again at its first
// slot, so that it touches only as many slots as it ever held at once; one that still holds a
// frame keeps its place.

#include <gtest/gtest.h>

#include <cstdint>

#include "dpdk/ring.h"

namespace fcswitch {
namespace {

void* item(uintptr_t i) {
  return reinterpret_cast<void*>(i * 64);  // never dereferenced
}

TEST(SpscRingRewind, AnEmptiedRingStartsAgainAtItsFirstSlotWithItsCapacity) {
  const dpdk::RingPtr ring = dpdk::make_spsc_ring("rewind_empty", 8);
  void* out[16];
  for (uintptr_t i = 1; i <= 5; ++i) ASSERT_EQ(rte_ring_sp_enqueue(ring.get(), item(i)), 0);
  ASSERT_EQ(rte_ring_sc_dequeue_burst(ring.get(), out, 16, nullptr), 5u);
  dpdk::rewind_if_empty(ring.get());
  EXPECT_EQ(ring->prod.tail, 0u);
  EXPECT_EQ(ring->cons.tail, 0u);
  EXPECT_EQ(ring->prod.head, 0u);
  EXPECT_EQ(ring->cons.head, 0u);
  // Exactly its capacity again, in order.
  for (uintptr_t i = 1; i <= 8; ++i) ASSERT_EQ(rte_ring_sp_enqueue(ring.get(), item(i)), 0);
  EXPECT_NE(rte_ring_sp_enqueue(ring.get(), item(9)), 0);
  EXPECT_EQ(rte_ring_count(ring.get()), 8u);
  ASSERT_EQ(rte_ring_sc_dequeue_burst(ring.get(), out, 16, nullptr), 8u);
  for (uintptr_t i = 1; i <= 8; ++i) EXPECT_EQ(out[i - 1], item(i));
}

TEST(SpscRingRewind, ARingThatHoldsAFrameKeepsItsPlace) {
  const dpdk::RingPtr ring = dpdk::make_spsc_ring("rewind_held", 8);
  void* out[16];
  for (uintptr_t i = 1; i <= 3; ++i) ASSERT_EQ(rte_ring_sp_enqueue(ring.get(), item(i)), 0);
  ASSERT_EQ(rte_ring_sc_dequeue_burst(ring.get(), out, 2, nullptr), 2u);
  dpdk::rewind_if_empty(ring.get());
  EXPECT_EQ(ring->prod.tail, 3u);
  EXPECT_EQ(ring->cons.tail, 2u);
  ASSERT_EQ(rte_ring_sc_dequeue_burst(ring.get(), out, 16, nullptr), 1u);
  EXPECT_EQ(out[0], item(3));
}

}  // namespace
}  // namespace fcswitch

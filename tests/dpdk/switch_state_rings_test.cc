// The rings a SwitchState makes: none at a port without a device (a lab host's application
// port), and a shutdown flush that passes such a port by; every port's with `device_ports`
// left out.

#include <gtest/gtest.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "switch/drop_reasons.h"
#include "switch/queued_flush.h"
#include "switch/switch_state.h"

namespace fcswitch {
namespace {

// Rings made at first use (the lab): every lane null until a producer asks for it; the flush
// passes the null ones by.
TEST(SwitchStateRings, AnEgressRingMadeAtFirstUseIsNullUntilAProducerAsks) {
  SwitchState state(2, "first_use", 64, 64, false, 0, 0, /*one_thread=*/true,
                    /*device_ports=*/-1, /*egress_rings_at_first_use=*/true);
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < kNumEgressQueues; ++q) EXPECT_EQ(state.egress_ring(p, q, 0), nullptr);
  rte_ring* ring = state.egress_ring_to_fill(1, 3, 0);
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(rte_ring_get_capacity(ring), 64u);
  EXPECT_EQ(state.egress_ring(1, 3, 0), ring);
  EXPECT_EQ(state.egress_ring_to_fill(1, 3, 0), ring);  // made once
  EXPECT_EQ(state.egress_ring(1, 2, 0), nullptr);
  rte_mempool* pool = rte_pktmbuf_pool_create("first_use_pool", 63, 0, 0, 256, SOCKET_ID_ANY);
  ASSERT_NE(pool, nullptr);
  rte_mbuf* m = rte_pktmbuf_alloc(pool);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(rte_ring_sp_enqueue(ring, m), 0);
  DropCounters drops(2);
  EXPECT_EQ(flush_queued(state, nullptr, {}, drops), 1u);
  EXPECT_EQ(drops.read(1, DropReason::kShutdownFlush), 1u);
  rte_mempool_free(pool);
}

TEST(SwitchStateRings, APortWithoutADeviceHasNoRingsAndTheFlushPassesItBy) {
  SwitchState state(2, "no_device", 64, 64, false, /*pabo_queues=*/1 << 3, 16,
                    /*one_thread=*/false, /*device_ports=*/1);
  EXPECT_NE(state.fwd_rings[0], nullptr);
  EXPECT_NE(state.control_rings[0], nullptr);
  EXPECT_NE(state.bounce_rings[0][3], nullptr);
  EXPECT_EQ(state.fwd_rings[1], nullptr);
  EXPECT_EQ(state.control_rings[1], nullptr);
  EXPECT_EQ(state.bounce_rings[1][3], nullptr);
  for (int q = 0; q < kNumEgressQueues; ++q) {
    EXPECT_EQ(state.egress_rings[0][q].size(), 1u);
    EXPECT_TRUE(state.egress_rings[1][q].empty());
  }
  // A frame that entered at the application port, queued at the NIC's: flushed and counted.
  rte_mempool* pool = rte_pktmbuf_pool_create("no_device_pool", 63, 0, 0, 256, SOCKET_ID_ANY);
  ASSERT_NE(pool, nullptr);
  rte_mbuf* m = rte_pktmbuf_alloc(pool);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(rte_ring_sp_enqueue(state.egress_ring(0, 3, 1), m), 0);
  DropCounters drops(2);
  EXPECT_EQ(flush_queued(state, nullptr, {}, drops), 1u);
  EXPECT_EQ(drops.read(0, DropReason::kShutdownFlush), 1u);
  EXPECT_EQ(rte_mempool_in_use_count(pool), 0u);
  rte_mempool_free(pool);
}

TEST(SwitchStateRings, EveryPortHasItsRingsByDefault) {
  SwitchState state(3, "every_port", 64, 64);
  for (int p = 0; p < 3; ++p) {
    EXPECT_NE(state.fwd_rings[p], nullptr);
    EXPECT_NE(state.control_rings[p], nullptr);
    EXPECT_EQ(state.egress_rings[p][0].size(), 1u);
  }
}

}  // namespace
}  // namespace fcswitch

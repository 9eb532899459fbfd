// A frame's room behind its start where its buffer is smaller than DPDK's headroom and the
// frame (dpdk/frame_room.h: the lab's 128-byte buffers), and a flooded frame's copy.

#include "dpdk/frame_room.h"

#include <gtest/gtest.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstring>

namespace fcswitch::dpdk {
namespace {

struct Pool {
  Pool(const char* name, uint16_t buffer_bytes)
      : pool(rte_pktmbuf_pool_create(name, 63, 0, 0, buffer_bytes, SOCKET_ID_ANY)) {}
  ~Pool() { rte_mempool_free(pool); }
  rte_mempool* pool;
};

// 128 bytes, as a lab frame's: DPDK's reset leaves no room; a 1514-byte frame gets 112 bytes
// behind its start and 16 in front, a 64-byte one its 64 and the rest in front.
TEST(FrameRoom, ASmallBufferGivesUpHeadroomForTheFrame) {
  Pool p("room_small", 128);
  ASSERT_NE(p.pool, nullptr);
  rte_mbuf* m = rte_pktmbuf_alloc(p.pool);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(rte_pktmbuf_tailroom(m), 0u);
  make_tailroom(m, 1514);
  EXPECT_EQ(rte_pktmbuf_headroom(m), kMinHeadroomBytes);
  EXPECT_EQ(rte_pktmbuf_tailroom(m), 128u - kMinHeadroomBytes);
  EXPECT_NE(rte_pktmbuf_prepend(m, 10), nullptr);  // PABO's shim still fits in front
  rte_pktmbuf_reset(m);
  make_tailroom(m, 64);
  EXPECT_EQ(rte_pktmbuf_tailroom(m), 64u);
  EXPECT_EQ(rte_pktmbuf_headroom(m), 64u);
  rte_pktmbuf_free(m);
}

// A full buffer (fchost's, fcswitch's) keeps DPDK's headroom.
TEST(FrameRoom, AFullBufferIsLeftAsDpdkMadeIt) {
  Pool p("room_full", RTE_MBUF_DEFAULT_BUF_SIZE);
  ASSERT_NE(p.pool, nullptr);
  rte_mbuf* m = rte_pktmbuf_alloc(p.pool);
  ASSERT_NE(m, nullptr);
  make_tailroom(m, 1514);
  EXPECT_EQ(rte_pktmbuf_headroom(m), RTE_PKTMBUF_HEADROOM);
  rte_pktmbuf_free(m);
}

// A lab frame's copy: one segment, the bytes it carries, its whole length, its fields. (DPDK's
// rte_pktmbuf_copy chains a segment per buffer here, each with no room.)
TEST(FrameRoom, ACopyOfALabFrameIsOneSegmentWithItsLength) {
  Pool p("room_copy", 128);
  ASSERT_NE(p.pool, nullptr);
  rte_mbuf* m = rte_pktmbuf_alloc(p.pool);
  ASSERT_NE(m, nullptr);
  make_tailroom(m, 1514);
  char* data = rte_pktmbuf_append(m, 112);
  ASSERT_NE(data, nullptr);
  for (int i = 0; i < 112; ++i) data[i] = static_cast<char>(i);
  m->pkt_len = 1514;
  m->port = 3;
  m->vlan_tci = 0x6005;
  m->dynfield1[0] = 0xfeedu;
  rte_mbuf* copy = copy_frame(m);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->nb_segs, 1u);
  EXPECT_EQ(rte_pktmbuf_data_len(copy), 112u);
  EXPECT_EQ(rte_pktmbuf_pkt_len(copy), 1514u);
  EXPECT_EQ(std::memcmp(rte_pktmbuf_mtod(copy, char*), data, 112), 0);
  EXPECT_EQ(copy->port, 3u);
  EXPECT_EQ(copy->vlan_tci, 0x6005u);
  EXPECT_EQ(copy->dynfield1[0], 0xfeedu);
  rte_pktmbuf_free(copy);
  rte_pktmbuf_free(m);
  EXPECT_EQ(rte_mempool_in_use_count(p.pool), 0u);
}

}  // namespace
}  // namespace fcswitch::dpdk

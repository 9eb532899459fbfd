// FeedbackFramer with a dry control pool: the frame stays unsent and is counted, by the framer
// and in the node's tally (SwitchState::alloc_failures), which the lab's schedule reads to poll
// a starved node in every round. Built once the pool has mbufs again.

#include <gtest/gtest.h>
#include <rte_mbuf.h>

#include <atomic>
#include <vector>

#include "fc/feedback_out.h"
#include "switch/feedback_framer.h"

namespace fcswitch {
namespace {

TEST(FeedbackFramer, ADryControlPoolIsCountedByTheFramerAndTheNode) {
  rte_mempool* pool = rte_pktmbuf_pool_create("ffr_dry", 63, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
  ASSERT_NE(pool, nullptr);
  std::vector<rte_mbuf*> taken;
  while (rte_mbuf* m = rte_pktmbuf_alloc(pool)) taken.push_back(m);
  std::atomic<uint64_t> node_tally{0};
  FeedbackFramer framer(FeedbackFramerSettings{{}, 0x8808, 0x0101, pool, &node_tally});
  fc::FeedbackOut pause;
  pause.class_enable = 1u << 3;
  pause.class_time[3] = 0xffff;
  framer.add(pause);
  framer.build({});
  EXPECT_EQ(framer.waiting(), 0u);
  EXPECT_FALSE(framer.idle());  // kept, to be tried again
  EXPECT_EQ(framer.control_alloc_failures(), 1u);
  EXPECT_EQ(node_tally.load(), 1u);

  rte_pktmbuf_free(taken.back());
  taken.pop_back();
  framer.build({});
  EXPECT_EQ(framer.waiting(), 1u);
  EXPECT_EQ(framer.control_alloc_failures(), 1u);
  EXPECT_EQ(node_tally.load(), 1u);
  rte_mbuf* built[1];
  ASSERT_EQ(framer.take_held(built, 1), 1u);
  rte_pktmbuf_free(built[0]);
  for (rte_mbuf* m : taken) rte_pktmbuf_free(m);
  EXPECT_EQ(rte_mempool_avail_count(pool), 63u);
  rte_mempool_free(pool);
}

}  // namespace
}  // namespace fcswitch

// MemifRedial's schedule, on a net_ring port standing in for a memif client whose server has
// gone: its link is set down by hand, and a dial (stop and start, on the EAL's interrupt thread)
// brings a ring port's link up again. The clock is the test's: a dial at once, none before the
// backoff, which doubles from 100 ms to 1 s; a link that comes up starts the schedule again.

#include <gtest/gtest.h>
#include <rte_cycles.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <chrono>

#include "dpdk/memif_redial.h"

namespace fcswitch::dpdk {
namespace {

using std::chrono::milliseconds;

class RedialRingPort {
 public:
  RedialRingPort() {
    ring_ = rte_ring_create("redial_ring", 64, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
    EXPECT_NE(ring_, nullptr);
    const int id = rte_eth_from_rings("redial_port", &ring_, 1, &ring_, 1, 0);
    EXPECT_GE(id, 0);
    id_ = static_cast<uint16_t>(id);
    pool_ =
        rte_pktmbuf_pool_create("redial_pool", 63, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
    EXPECT_NE(pool_, nullptr);
    const rte_eth_conf conf{};
    EXPECT_EQ(rte_eth_dev_configure(id_, 1, 1, &conf), 0);
    EXPECT_EQ(rte_eth_rx_queue_setup(id_, 0, 64, SOCKET_ID_ANY, nullptr, pool_), 0);
    EXPECT_EQ(rte_eth_tx_queue_setup(id_, 0, 64, SOCKET_ID_ANY, nullptr), 0);
    EXPECT_EQ(rte_eth_dev_start(id_), 0);
  }
  ~RedialRingPort() {
    rte_eth_dev_close(id_);
    rte_ring_free(ring_);
    rte_mempool_free(pool_);
  }
  uint16_t id() const { return id_; }
  void cut() { ASSERT_EQ(rte_eth_dev_set_link_down(id_), 0); }
  bool up() const {
    rte_eth_link link{};
    return rte_eth_link_get_nowait(id_, &link) == 0 && link.link_status == RTE_ETH_LINK_UP;
  }

 private:
  rte_ring* ring_ = nullptr;
  rte_mempool* pool_ = nullptr;
  uint16_t id_ = 0;
};

// The interrupt thread has run the dial asked for (within 5 s).
bool dial_ran(const MemifRedial& redial) {
  const uint64_t end = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
  while (redial.dialling() && rte_get_timer_cycles() < end) {
  }
  return !redial.dialling();
}

TEST(MemifRedial, DialsAtOnceThenBacksOffToASecond) {
  RedialRingPort port;
  MemifRedial redial(port.id());
  const MemifRedial::Clock::time_point t0{};
  redial.poll(true, t0);  // up: nothing to do
  EXPECT_FALSE(redial.dialling());
  EXPECT_EQ(redial.dials_since_up(), 0u);

  // Down: a dial at once. A ring port's start brings its link up.
  port.cut();
  redial.poll(false, t0);
  EXPECT_EQ(redial.dials_since_up(), 1u);
  ASSERT_TRUE(dial_ran(redial));
  EXPECT_TRUE(port.up());

  // Still down at each poll (the server not back): dials 100, 200, 400, 800, 1 000, 1 000 ms
  // after the one before, none sooner.
  const int gaps_ms[] = {100, 200, 400, 800, 1000, 1000};
  auto at = t0;
  uint64_t dials = 1;
  for (int gap : gaps_ms) {
    port.cut();
    redial.poll(false, at + milliseconds(gap - 1));
    EXPECT_EQ(redial.dials_since_up(), dials) << "a dial " << gap - 1 << " ms after the last";
    at += milliseconds(gap);
    redial.poll(false, at);
    EXPECT_EQ(redial.dials_since_up(), ++dials) << "no dial " << gap << " ms after the last";
    ASSERT_TRUE(dial_ran(redial));
  }

  // The link came back: the next cut is dialled at once again.
  redial.poll(true, at);
  EXPECT_EQ(redial.dials_since_up(), 0u);
  port.cut();
  redial.poll(false, at + milliseconds(1));
  EXPECT_EQ(redial.dials_since_up(), 1u);
  ASSERT_TRUE(dial_ran(redial));
  EXPECT_TRUE(port.up());
}

}  // namespace
}  // namespace fcswitch::dpdk

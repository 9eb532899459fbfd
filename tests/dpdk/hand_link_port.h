#pragma once
// A net_ring port, configured and started, whose link the test sets by hand: for tests of what
// watches links (dpdk::LinkWatch, dpdk::MemifRedial). A ring port's start brings its link up.

#include <gtest/gtest.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <string>

namespace fcswitch::dpdk {

class HandLinkPort {
 public:
  explicit HandLinkPort(const std::string& name) {
    ring_ = rte_ring_create((name + "_ring").c_str(), 64, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
    EXPECT_NE(ring_, nullptr);
    const int id = rte_eth_from_rings(name.c_str(), &ring_, 1, &ring_, 1, 0);
    EXPECT_GE(id, 0);
    id_ = static_cast<uint16_t>(id);
    pool_ = rte_pktmbuf_pool_create((name + "_pool").c_str(), 63, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
                                    SOCKET_ID_ANY);
    EXPECT_NE(pool_, nullptr);
    const rte_eth_conf conf{};
    EXPECT_EQ(rte_eth_dev_configure(id_, 1, 1, &conf), 0);
    EXPECT_EQ(rte_eth_rx_queue_setup(id_, 0, 64, SOCKET_ID_ANY, nullptr, pool_), 0);
    EXPECT_EQ(rte_eth_tx_queue_setup(id_, 0, 64, SOCKET_ID_ANY, nullptr), 0);
    EXPECT_EQ(rte_eth_dev_start(id_), 0);
  }
  ~HandLinkPort() {
    rte_eth_dev_close(id_);
    rte_ring_free(ring_);
    rte_mempool_free(pool_);
  }
  HandLinkPort(const HandLinkPort&) = delete;
  HandLinkPort& operator=(const HandLinkPort&) = delete;

  uint16_t id() const { return id_; }
  void set_link(bool up) {
    ASSERT_EQ(up ? rte_eth_dev_set_link_up(id_) : rte_eth_dev_set_link_down(id_), 0);
  }
  bool link_up() const {
    rte_eth_link link{};
    return rte_eth_link_get_nowait(id_, &link) == 0 && link.link_status == RTE_ETH_LINK_UP;
  }

 private:
  rte_ring* ring_ = nullptr;
  rte_mempool* pool_ = nullptr;
  uint16_t id_ = 0;
};

}  // namespace fcswitch::dpdk

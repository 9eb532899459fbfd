// LinkWatch, the control thread's view of its ports' links. A driver with link-status-change
// interrupts (ixgbe, virtio, vhost) tells the EAL's interrupt thread at each change; a flap
// between two polls is then still seen, counted and answered. Here a net_ring port stands in:
// its link is set down and up by hand, and the interrupt is raised as such a driver raises it
// (rte_eth_dev_callback_process, a driver's call: ethdev_driver.h is not installed).

#include <gtest/gtest.h>
#include <rte_ethdev.h>

#include "dpdk/link_watch.h"
#include "hand_link_port.h"

extern "C" {
struct rte_eth_dev* rte_eth_dev_allocated(const char* name);
int rte_eth_dev_callback_process(struct rte_eth_dev* dev, enum rte_eth_event_type event,
                                 void* ret_param);
}

namespace fcswitch::dpdk {
namespace {

class RingLink {
 public:
  RingLink() : port_("lw_port") {
    char name[RTE_ETH_NAME_MAX_LEN];
    EXPECT_EQ(rte_eth_dev_get_name_by_port(port_.id(), name), 0);
    dev_ = rte_eth_dev_allocated(name);
    EXPECT_NE(dev_, nullptr);
  }
  uint16_t id() const { return port_.id(); }
  // The link goes down (or up) and, with `interrupt`, the driver says so.
  void set(bool up, bool interrupt) {
    port_.set_link(up);
    if (interrupt) rte_eth_dev_callback_process(dev_, RTE_ETH_EVENT_INTR_LSC, nullptr);
  }

 private:
  HandLinkPort port_;
  rte_eth_dev* dev_ = nullptr;
};

TEST(LinkWatch, AFlapBetweenPollsIsCountedWhereTheDriverInterrupts) {
  RingLink link;
  int restored = 0;
  {
    LinkWatch watch({{link.id(), "a"}}, [&](size_t) { ++restored; });
    watch.poll();  // up
    EXPECT_FALSE(watch.changed());

    // Down and up between two polls, as a driver without interrupts shows it: unseen.
    link.set(false, false);
    link.set(true, false);
    EXPECT_FALSE(watch.changed());
    watch.poll();
    EXPECT_EQ(watch.downs(0), 0u);
    EXPECT_EQ(restored, 0);

    // The same flap from a driver that interrupts: the control thread polls at once, counts
    // the flap and says its flow-control state again.
    link.set(false, true);
    link.set(true, true);
    EXPECT_TRUE(watch.changed());
    watch.poll();
    EXPECT_FALSE(watch.changed());
    EXPECT_EQ(watch.downs(0), 1u);
    EXPECT_EQ(watch.restores(0), 1u);
    EXPECT_EQ(restored, 1);

    // A down that a poll sees, then the up: one down, not two.
    link.set(false, true);
    watch.poll();
    link.set(true, true);
    watch.poll();
    EXPECT_EQ(watch.downs(0), 2u);
    EXPECT_EQ(watch.restores(0), 2u);
    EXPECT_EQ(restored, 2);
  }
  // The watch is gone, and with it its callback: a later interrupt calls nothing of it.
  link.set(false, true);
  EXPECT_EQ(restored, 2);
}

}  // namespace
}  // namespace fcswitch::dpdk

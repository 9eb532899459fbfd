// MemifRedial's schedule, on a net_ring port standing in for a memif client whose server has
// gone: its link is set down by hand, and a dial (stop and start, on the EAL's interrupt thread)
// brings a ring port's link up again. The clock is the test's: a dial at once, none before the
// backoff, which doubles from 100 ms to 1 s; a link that comes up starts the schedule again.

#include <gtest/gtest.h>
#include <rte_cycles.h>

#include <chrono>

#include "dpdk/memif_redial.h"
#include "hand_link_port.h"

namespace fcswitch::dpdk {
namespace {

using std::chrono::milliseconds;

// The interrupt thread has run the dial asked for (within 5 s).
bool dial_ran(const MemifRedial& redial) {
  const uint64_t end = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
  while (redial.dialling() && rte_get_timer_cycles() < end) {
  }
  return !redial.dialling();
}

TEST(MemifRedial, DialsAtOnceThenBacksOffToASecond) {
  HandLinkPort port("redial_port");
  MemifRedial redial(port.id());
  const MemifRedial::Clock::time_point t0{};
  port.set_link(false);
  redial.poll(false, t0);  // down before it was ever up: a handshake under way, no dial
  EXPECT_EQ(redial.dials_since_up(), 0u);
  port.set_link(true);
  redial.poll(true, t0);  // up: nothing to do
  EXPECT_FALSE(redial.dialling());
  EXPECT_EQ(redial.dials_since_up(), 0u);

  // Down: a dial at once. A ring port's start brings its link up.
  port.set_link(false);
  redial.poll(false, t0);
  EXPECT_EQ(redial.dials_since_up(), 1u);
  ASSERT_TRUE(dial_ran(redial));
  EXPECT_TRUE(port.link_up());

  // Still down at each poll (the server not back): dials 100, 200, 400, 800, 1 000, 1 000 ms
  // after the one before, none sooner.
  const int gaps_ms[] = {100, 200, 400, 800, 1000, 1000};
  auto at = t0;
  uint64_t dials = 1;
  for (int gap : gaps_ms) {
    port.set_link(false);
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
  port.set_link(false);
  redial.poll(false, at + milliseconds(1));
  EXPECT_EQ(redial.dials_since_up(), 1u);
  ASSERT_TRUE(dial_ran(redial));
  EXPECT_TRUE(port.link_up());
}

}  // namespace
}  // namespace fcswitch::dpdk

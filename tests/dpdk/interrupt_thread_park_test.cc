// The EAL's interrupt thread parked at a process's stop (dpdk/interrupt_thread_park.h). A memif
// link within this process: once the thread is parked, the client's stop does not reach the
// server, whose rings stay mapped and whose link stays up (without the park the interrupt
// thread disconnects it within a millisecond, which is what crashed a rehearsal's switch
// polling those rings); both ends then stop and close on this thread alone. And nothing the
// thread would run runs again: an alarm set afterwards is still pending long after its time.

#include <gtest/gtest.h>
#include <rte_alarm.h>
#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "dpdk/interrupt_thread_park.h"

namespace fcswitch::dpdk {
namespace {

// A memif port of this process: role "server" or "client" on `socket`, started.
uint16_t start_memif(const std::string& name, const std::string& role, const std::string& socket,
                     rte_mempool* pool) {
  const std::string args = "role=" + role + ",socket=" + socket + ",socket-abstract=no,rsize=6";
  EXPECT_EQ(rte_vdev_init(name.c_str(), args.c_str()), 0) << name;
  uint16_t id = 0;
  EXPECT_EQ(rte_eth_dev_get_port_by_name(name.c_str(), &id), 0) << name;
  const rte_eth_conf conf{};
  EXPECT_EQ(rte_eth_dev_configure(id, 1, 1, &conf), 0);
  EXPECT_EQ(rte_eth_rx_queue_setup(id, 0, 64, SOCKET_ID_ANY, nullptr, pool), 0);
  EXPECT_EQ(rte_eth_tx_queue_setup(id, 0, 64, SOCKET_ID_ANY, nullptr), 0);
  EXPECT_EQ(rte_eth_dev_start(id), 0);
  return id;
}

bool link_up(uint16_t port) {
  rte_eth_link link{};
  return rte_eth_link_get_nowait(port, &link) == 0 && link.link_status == RTE_ETH_LINK_UP;
}

// Until `done` or `ms` milliseconds have passed; whether `done` came.
template <class Done>
bool within_ms(uint64_t ms, Done done) {
  const uint64_t end = rte_get_timer_cycles() + ms * rte_get_timer_hz() / 1000;
  while (rte_get_timer_cycles() < end)
    if (done()) return true;
  return done();
}

void count_alarm(void* fired) {
  ++*static_cast<int*>(fired);
}

TEST(InterruptThreadPark, APeersStopNoLongerReachesAParkedProcess) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("fcsw_park_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string socket = (dir / "link.sock").string();
  rte_mempool* pool =
      rte_pktmbuf_pool_create("park_pool", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
  ASSERT_NE(pool, nullptr);
  const uint16_t server = start_memif("net_memif_park_s", "server", socket, pool);
  const uint16_t client = start_memif("net_memif_park_c", "client", socket, pool);
  // The handshake is the interrupt thread's work: it runs until both ends are up.
  ASSERT_TRUE(within_ms(5000, [&] { return link_up(server) && link_up(client); }));

  ASSERT_TRUE(park_interrupt_thread());
  EXPECT_TRUE(park_interrupt_thread(std::chrono::milliseconds(0)));  // once a process

  // The client stops: its disconnect message waits in the server's control socket.
  ASSERT_EQ(rte_eth_dev_stop(client), 0);
  EXPECT_FALSE(within_ms(200, [&] { return !link_up(server); }))
      << "the server was disconnected after the park";
  rte_mbuf* frames[8];
  EXPECT_EQ(rte_eth_rx_burst(server, 0, frames, 8), 0);  // its rings are still mapped

  // An alarm due in a microsecond is still pending 50 ms later: the thread runs nothing.
  int fired = 0;
  ASSERT_EQ(rte_eal_alarm_set(1, count_alarm, &fired), 0);
  within_ms(50, [] { return false; });
  EXPECT_EQ(rte_eal_alarm_cancel(count_alarm, &fired), 1);  // cancelled while still pending
  EXPECT_EQ(fired, 0);

  ASSERT_EQ(rte_eth_dev_stop(server), 0);
  EXPECT_EQ(rte_eth_dev_close(client), 0);
  EXPECT_EQ(rte_eth_dev_close(server), 0);
  EXPECT_EQ(rte_mempool_in_use_count(pool), 0u);
  rte_mempool_free(pool);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fcswitch::dpdk

#pragma once
// A memif client that dials its server again while its link is down. DPDK 22.11's memif
// client connects only as its port starts: when its server's process stops, the link goes
// down and stays down, though a new server comes up on the same socket (a switch restarted on
// a testbed rehearsed on one machine). While the link is down, the port is stopped and started
// again (a new connect), the first time at once, then after 100 ms, doubling to a second.
//
// Each dial runs on the EAL's interrupt thread, in an alarm: that thread runs memif's own
// handlers (the handshake, a disconnect), so a dial never runs beside one of them. The lcores
// may poll the port meanwhile, as they do while it first connects: a memif port without its
// connection receives and sends nothing.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace fcswitch::dpdk {

class MemifRedial {
 public:
  using Clock = std::chrono::steady_clock;
  explicit MemifRedial(uint16_t eth_id) : eth_id_(eth_id) {}
  ~MemifRedial();  // a dial not yet run is cancelled; one running is waited for
  MemifRedial(const MemifRedial&) = delete;
  MemifRedial& operator=(const MemifRedial&) = delete;

  // The control thread's poll, with the link as it read it: asks for a dial when one is due,
  // not before the link was first up (at start a client's handshake is still under way).
  void poll(bool link_up, Clock::time_point now);
  // Dials asked for since the link last came up.
  uint64_t dials_since_up() const { return dials_since_up_; }
  // A dial asked for has not run yet.
  bool dialling() const { return dialling_.load(std::memory_order_acquire); }

  static constexpr std::chrono::milliseconds kFirstBackoff{100};
  static constexpr std::chrono::milliseconds kLongestBackoff{1000};

 private:
  static void dial(void* redial);  // on the interrupt thread

  uint16_t eth_id_;
  std::atomic<bool> dialling_{false};  // asked for, not yet run
  bool seen_up_ = false;
  uint64_t dials_since_up_ = 0;
  std::chrono::milliseconds backoff_{0};
  Clock::time_point next_dial_{};
};

}  // namespace fcswitch::dpdk

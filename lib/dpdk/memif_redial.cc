#include "dpdk/memif_redial.h"

#include <rte_alarm.h>
#include <rte_ethdev.h>

#include <algorithm>

namespace fcswitch::dpdk {

MemifRedial::~MemifRedial() {
  rte_eal_alarm_cancel(dial, this);  // waits for a dial the interrupt thread is running
}

void MemifRedial::poll(bool link_up, Clock::time_point now) {
  if (link_up) {  // the next time it goes down, a dial at once
    seen_up_ = true;
    dials_since_up_ = 0;
    backoff_ = std::chrono::milliseconds(0);
    next_dial_ = {};
    return;
  }
  if (!seen_up_ || dialling_.load(std::memory_order_acquire) || now < next_dial_) return;
  dialling_.store(true, std::memory_order_release);
  if (rte_eal_alarm_set(1, dial, this) != 0) {
    dialling_.store(false, std::memory_order_release);
    return;
  }
  ++dials_since_up_;
  // A dial that connects starts the handshake, a few messages on the interrupt thread: the
  // next dial comes no sooner than the backoff, which is never less than 100 ms.
  backoff_ = std::clamp(backoff_ * 2, std::chrono::milliseconds(kFirstBackoff), kLongestBackoff);
  next_dial_ = now + backoff_;
}

void MemifRedial::dial(void* arg) {
  auto* redial = static_cast<MemifRedial*>(arg);
  rte_eth_link link{};
  // Up since it was asked for (the handshake of an earlier dial ended): nothing to do.
  if (rte_eth_link_get_nowait(redial->eth_id_, &link) == 0 && link.link_status != RTE_ETH_LINK_UP) {
    rte_eth_dev_stop(redial->eth_id_);
    rte_eth_dev_start(redial->eth_id_);  // fails while no server listens: the next dial
  }
  redial->dialling_.store(false, std::memory_order_release);
}

}  // namespace fcswitch::dpdk

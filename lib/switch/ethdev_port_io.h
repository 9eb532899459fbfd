#pragma once
// A port that is a DPDK ethdev (one RX and one TX queue, set up by dpdk::EthPort).

#include <rte_ethdev.h>

#include <cerrno>

#include "switch/port_io.h"

namespace fcswitch {

class EthdevPortIo final : public PortIo {
 public:
  explicit EthdevPortIo(uint16_t port_id) : port_id_(port_id) {}
  uint16_t rx_burst(rte_mbuf** pkts, uint16_t max) override {
    return rte_eth_rx_burst(port_id_, 0, pkts, max);
  }
  uint16_t tx_burst(rte_mbuf** pkts, uint16_t count) override {
    return rte_eth_tx_burst(port_id_, 0, pkts, count);
  }
  // The NIC frees TX descriptors in ring order, so the free ones ahead of the tail are a
  // prefix: the first offset not done bounds the room (binary search). PMDs without
  // tx_descriptor_status (the vdevs) cannot tell: `max`, the port's tx_burst.
  uint16_t tx_room(uint16_t max) override {
    if (max == 0) return 0;
    const int last = rte_eth_tx_descriptor_status(port_id_, 0, static_cast<uint16_t>(max - 1));
    if (last == -ENOTSUP || last == RTE_ETH_TX_DESC_DONE) return max;
    uint16_t free = 0;
    uint16_t busy = static_cast<uint16_t>(max - 1);
    while (free < busy) {
      const auto mid = static_cast<uint16_t>((free + busy) / 2);
      if (rte_eth_tx_descriptor_status(port_id_, 0, mid) == RTE_ETH_TX_DESC_DONE) {
        free = static_cast<uint16_t>(mid + 1);
      } else {
        busy = mid;
      }
    }
    return free;
  }

 private:
  uint16_t port_id_;
};

}  // namespace fcswitch

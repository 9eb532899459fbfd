#pragma once
// A port that is a DPDK ethdev (one RX and one TX queue, set up by dpdk::EthPort).

#include <rte_ethdev.h>

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

 private:
  uint16_t port_id_;
};

}  // namespace fcswitch

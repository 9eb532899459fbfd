#pragma once
// A port made of two rings, as the lab's links see it: frames arrive in `rx` (the link
// delivers there) and leave through `tx` (the link takes from there, like a NIC's TX
// descriptor ring). What net_ring does, without an ethdev: a lab process holds as many of
// these as it has memory for. Single producer and consumer on each ring.

#include <rte_ring.h>

#include "switch/port_io.h"

namespace fcswitch {

class RingPortIo final : public PortIo {
 public:
  RingPortIo(rte_ring* rx, rte_ring* tx) : rx_(rx), tx_(tx) {}
  uint16_t rx_burst(rte_mbuf** pkts, uint16_t max) override {
    return static_cast<uint16_t>(
        rte_ring_sc_dequeue_burst(rx_, reinterpret_cast<void**>(pkts), max, nullptr));
  }
  uint16_t tx_burst(rte_mbuf** pkts, uint16_t count) override {
    return static_cast<uint16_t>(
        rte_ring_sp_enqueue_burst(tx_, reinterpret_cast<void**>(pkts), count, nullptr));
  }
  uint16_t tx_room(uint16_t max) override {
    const unsigned free = rte_ring_free_count(tx_);
    return static_cast<uint16_t>(free < max ? free : max);
  }

 private:
  rte_ring* rx_;
  rte_ring* tx_;
};

}  // namespace fcswitch

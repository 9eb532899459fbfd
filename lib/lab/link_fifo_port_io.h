#pragma once
// A lab port: frames arrive in `rx` (its link delivers there) and leave through `tx` (its
// link takes from there, like a NIC's TX descriptor ring). No ethdev: a lab process holds as
// many of these as it has memory for.

#include "lab/link_fifo.h"
#include "switch/port_io.h"

namespace fcswitch::lab {

class LinkFifoPortIo final : public PortIo {
 public:
  LinkFifoPortIo(LinkFifo* rx, LinkFifo* tx) : rx_(rx), tx_(tx) {}
  uint16_t rx_burst(rte_mbuf** pkts, uint16_t max) override {
    return static_cast<uint16_t>(rx_->dequeue_burst(pkts, max));
  }
  uint16_t tx_burst(rte_mbuf** pkts, uint16_t count) override {
    return static_cast<uint16_t>(tx_->enqueue_burst(pkts, count));
  }
  uint16_t tx_room(uint16_t max) override {
    const unsigned free = tx_->free_count();
    return static_cast<uint16_t>(free < max ? free : max);
  }

 private:
  LinkFifo* rx_;
  LinkFifo* tx_;
};

}  // namespace fcswitch::lab

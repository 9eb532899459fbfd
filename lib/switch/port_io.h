#pragma once
// How the RX and TX tasks reach their port: a burst in, a burst out, one virtual call per
// burst (docs/architecture.md), as DPDK's lib/port and BESS's port drivers do. Backends:
// EthdevPortIo (fcswitch: any PMD, the 82599), lab::LinkFifoPortIo (the lab: its links'
// FIFOs directly, so a lab process is not bounded by RTE_MAX_ETHPORTS) and RingPortIo (two
// rte_rings: tests that play the link themselves).

#include <cstdint>

struct rte_mbuf;

namespace fcswitch {

class PortIo {
 public:
  virtual ~PortIo() = default;
  // Up to `max` received frames into `pkts`; the caller owns them.
  virtual uint16_t rx_burst(rte_mbuf** pkts, uint16_t max) = 0;
  // Hands the first n of `pkts` (n returned) to the port; the rest stay the caller's.
  virtual uint16_t tx_burst(rte_mbuf** pkts, uint16_t count) = 0;
  // How many frames, at most `max`, the port would take now (free TX descriptors); `max` when
  // the device cannot tell. TX commits no more than this past its gates: a frame picked but
  // not taken would leave after a pause or a lower rate had come in, and lengthen τ.
  virtual uint16_t tx_room(uint16_t max) { return max; }
};

}  // namespace fcswitch

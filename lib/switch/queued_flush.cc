#include "switch/queued_flush.h"

#include <rte_mbuf.h>
#include <rte_ring.h>

namespace fcswitch {

uint64_t flush_queued(SwitchState& state, FwdTask* fwd, const std::vector<TxTask*>& tx,
                      DropCounters& drops) {
  uint64_t flushed = 0;
  // More than a TX task can hold (32 pending + 9 queue heads and 8 bounce heads of 32):
  // TxTask::take_held hands all over in one call.
  constexpr unsigned kMax = 1024;
  void* pkts[kMax];
  auto drop_all = [&](int port, unsigned count) {
    drops.add(port, DropReason::kShutdownFlush, count);
    rte_pktmbuf_free_bulk(reinterpret_cast<rte_mbuf**>(pkts), count);
    flushed += count;
  };
  if (fwd)
    while (unsigned n = fwd->take_held(reinterpret_cast<rte_mbuf**>(pkts), kMax)) {
      for (unsigned i = 0; i < n; ++i)
        drops.add(state.meta(reinterpret_cast<rte_mbuf*>(pkts[i])).ingress_port,
                  DropReason::kShutdownFlush);
      rte_pktmbuf_free_bulk(reinterpret_cast<rte_mbuf**>(pkts), n);
      flushed += n;
    }
  for (int port = 0; port < state.ports; ++port) {
    if (rte_ring* ring = state.fwd_rings[port].get())  // none at a port without a device
      while (unsigned n = rte_ring_dequeue_burst(ring, pkts, kMax, nullptr)) drop_all(port, n);
    for (const auto& lanes : state.egress_rings[port])
      for (const auto& ring : lanes)
        if (ring)  // null: never filled (SwitchState's rings made at first use)
          while (unsigned n = rte_ring_dequeue_burst(ring.get(), pkts, kMax, nullptr))
            drop_all(port, n);
    for (const auto& ring : state.bounce_rings[port])
      if (ring)
        while (unsigned n = rte_ring_dequeue_burst(ring.get(), pkts, kMax, nullptr))
          drop_all(port, n);
    if (port < static_cast<int>(tx.size()))
      while (unsigned n = tx[port]->take_held(reinterpret_cast<rte_mbuf**>(pkts), kMax))
        drop_all(port, n);
  }
  return flushed;
}

}  // namespace fcswitch

#include "switch/rx_task.h"

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <cstring>

#include "switch/burst.h"

namespace fcswitch {

RxTask::RxTask(std::string name, int port, uint16_t port_id, uint16_t control_ether_type,
               SwitchState& state)
    : Task(std::move(name)),
      port_(port),
      port_id_(port_id),
      control_ether_type_be_(rte_cpu_to_be_16(control_ether_type)),
      state_(state),
      drops_(state.ports) {}

bool RxTask::poll(uint64_t /*now_tsc*/) {
  if (state_.rx_stopped.load(std::memory_order_relaxed)) return false;
  rte_mbuf* pkts[kBurstSize];
  const uint16_t n = rte_eth_rx_burst(port_id_, 0, pkts, kBurstSize);
  if (n == 0) return false;

  rte_mbuf* data[kBurstSize];
  rte_mbuf* control[kBurstSize];
  uint16_t n_data = 0, n_control = 0;
  uint64_t bytes = 0;
  for (uint16_t i = 0; i < n; ++i) {
    rte_mbuf* m = pkts[i];
    bytes += rte_pktmbuf_pkt_len(m);
    uint16_t ether_type_be = 0;
    if (rte_pktmbuf_data_len(m) >= 14)
      std::memcpy(&ether_type_be, rte_pktmbuf_mtod_offset(m, const uint8_t*, 12), 2);
    if (ether_type_be == control_ether_type_be_) {
      control[n_control++] = m;
    } else {
      data[n_data++] = m;
    }
  }
  packets_.add(n);
  bytes_.add(bytes);
  if (n_control) {
    // Feedback frames are consumed here, never forwarded. The flow-control engine of this
    // port's egress gate reads them (issue 3); until then they are counted and freed.
    control_frames_.add(n_control);
    rte_pktmbuf_free_bulk(control, n_control);
  }
  if (n_data) {
    const unsigned sent = rte_ring_sp_enqueue_burst(
        state_.fwd_rings[port_].get(), reinterpret_cast<void**>(data), n_data, nullptr);
    if (sent < n_data) {
      drops_.add(port_, DropReason::kFwdRingFull, n_data - sent);
      rte_pktmbuf_free_bulk(data + sent, n_data - sent);
    }
  }
  return true;
}

}  // namespace fcswitch

#include "dpdk/ring.h"

#include <rte_errno.h>

#include <fmt/format.h>

#include <stdexcept>

namespace fcswitch::dpdk {

RingPtr make_spsc_ring(const std::string& name, unsigned capacity) {
  rte_ring* ring = rte_ring_create(name.c_str(), capacity, SOCKET_ID_ANY,
                                   RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
  if (!ring) throw std::runtime_error(fmt::format("ring {}: {}", name, rte_strerror(rte_errno)));
  return RingPtr(ring);
}

}  // namespace fcswitch::dpdk

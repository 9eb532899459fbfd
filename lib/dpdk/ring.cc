#include "dpdk/ring.h"

#include <rte_errno.h>

#include <fmt/format.h>

#include <stdexcept>

namespace fcswitch::dpdk {

RingPtr make_spsc_ring(const std::string& name, unsigned capacity) {
  return make_spsc_elem_ring(name, sizeof(void*), capacity);
}

RingPtr make_spsc_elem_ring(const std::string& name, unsigned element_bytes, unsigned capacity) {
  rte_ring* ring = rte_ring_create_elem(name.c_str(), element_bytes, capacity, SOCKET_ID_ANY,
                                        RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
  if (!ring) throw std::runtime_error(fmt::format("ring {}: {}", name, rte_strerror(rte_errno)));
  return RingPtr(ring);
}

}  // namespace fcswitch::dpdk

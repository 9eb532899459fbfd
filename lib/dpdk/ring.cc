#include "dpdk/ring.h"

#include <rte_errno.h>
#include <rte_malloc.h>

#include <fmt/format.h>

#include <stdexcept>

namespace fcswitch::dpdk {

RingPtr make_spsc_ring(const std::string& name, unsigned capacity) {
  return make_spsc_elem_ring(name, sizeof(void*), capacity);
}

// rte_ring_create takes a memzone per ring, and Debian's DPDK has 2560 (RTE_MAX_MEMZONE):
// fewer than the rings of a lab with thousands of ports. The same ring on memory from DPDK's
// heap takes none.
RingPtr make_spsc_elem_ring(const std::string& name, unsigned element_bytes, unsigned capacity) {
  constexpr unsigned kFlags = RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ;
  const ssize_t bytes = rte_ring_get_memsize_elem(element_bytes, rte_align32pow2(capacity + 1));
  if (bytes < 0)
    throw std::runtime_error(fmt::format("ring {}: {} entries of {} bytes: {}", name, capacity,
                                         element_bytes, rte_strerror(static_cast<int>(-bytes))));
  auto* ring = static_cast<rte_ring*>(
      rte_zmalloc(name.c_str(), static_cast<size_t>(bytes), RTE_CACHE_LINE_SIZE));
  if (!ring) throw std::runtime_error(fmt::format("ring {}: no memory for {} bytes", name, bytes));
  RingPtr owned(ring);
  const int rc = rte_ring_init(ring, name.c_str(), capacity, kFlags);
  if (rc < 0) throw std::runtime_error(fmt::format("ring {}: {}", name, rte_strerror(-rc)));
  return owned;
}

}  // namespace fcswitch::dpdk

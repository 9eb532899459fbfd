#include "dpdk/ring.h"

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace fcswitch::dpdk {

void RingDeleter::operator()(rte_ring* ring) const {
  if (on_dpdk_heap) {
    rte_free(ring);
  } else {
    std::free(ring);
  }
}

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
  // rte_ring_init sets the header; slots are written before they are read.
  const bool on_dpdk_heap = rte_eal_has_hugepages() != 0;
  const auto size = RTE_ALIGN_CEIL(static_cast<size_t>(bytes), RTE_CACHE_LINE_SIZE);
  auto* ring =
      static_cast<rte_ring*>(on_dpdk_heap ? rte_malloc(name.c_str(), size, RTE_CACHE_LINE_SIZE)
                                          : std::aligned_alloc(RTE_CACHE_LINE_SIZE, size));
  if (!ring) throw std::runtime_error(fmt::format("ring {}: no memory for {} bytes", name, bytes));
  RingPtr owned(ring, RingDeleter{on_dpdk_heap});
  const int rc = rte_ring_init(ring, name.c_str(), capacity, kFlags);
  if (rc < 0) throw std::runtime_error(fmt::format("ring {}: {}", name, rte_strerror(-rc)));
  return owned;
}

}  // namespace fcswitch::dpdk

#pragma once
// An owned rte_ring of mbuf pointers between two tasks (single producer, single consumer).

#include <rte_ring.h>

#include <memory>
#include <string>

namespace fcswitch::dpdk {

struct RingDeleter {
  void operator()(rte_ring* ring) const { rte_ring_free(ring); }
};
using RingPtr = std::unique_ptr<rte_ring, RingDeleter>;

// Holds exactly `capacity` entries. Throws std::runtime_error (name too long, no memory).
RingPtr make_spsc_ring(const std::string& name, unsigned capacity);

}  // namespace fcswitch::dpdk

#pragma once
// An owned rte_ring between two tasks (single producer, single consumer): of mbuf pointers,
// or of small fixed-size messages.

#include <rte_malloc.h>
#include <rte_ring.h>

#include <memory>
#include <string>

namespace fcswitch::dpdk {

// Frees a ring from wherever make_spsc_elem_ring took its memory.
struct RingDeleter {
  bool on_dpdk_heap = true;
  void operator()(rte_ring* ring) const;
};
using RingPtr = std::unique_ptr<rte_ring, RingDeleter>;

// Holds exactly `capacity` entries, on DPDK's heap (no memzone: a lab makes tens of thousands),
// or, when the EAL runs without hugepages, on the C library's heap: there DPDK's heap is
// ordinary memory too, but it zeroes every freed block, which makes each page of every ring
// resident when the rings go (a lab's peak memory), while the C library leaves the pages
// of slots never used (an idle port's, a queue no packet takes) untouched.
// Throws std::runtime_error (name too long, no memory).
RingPtr make_spsc_ring(const std::string& name, unsigned capacity);
// The same for fixed-size elements of `element_bytes` (a multiple of 4), used with the
// rte_ring_*_elem calls.
RingPtr make_spsc_elem_ring(const std::string& name, unsigned element_bytes, unsigned capacity);

// For a single-producer, single-consumer ring whose producer, consumer and every reader of its
// counts are one thread: when it is empty, its indices start again at its first slot. A ring
// otherwise takes its slots each in turn, so that every page of every busy ring becomes
// resident (a lab's thousands of queues: hundreds of MB) and each frame lands on a slot no
// longer in cache; rewound, it touches only as many slots as it ever held at once. Not for a
// ring another thread enqueues to, dequeues from or counts: they would see the indices move
// back under them.
inline void rewind_if_empty(rte_ring* ring) {
  if (ring->cons.tail != ring->prod.tail || ring->prod.tail == 0) return;
  ring->prod.head = 0;
  ring->prod.tail = 0;
  ring->cons.head = 0;
  ring->cons.tail = 0;
}

}  // namespace fcswitch::dpdk

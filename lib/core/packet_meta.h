#pragma once
// What the switch remembers about a packet between FWD and its departure. It lives in an
// mbuf dynamic field (lib/dpdk/mbuf_meta.h); this header only defines the layout so that
// pure code and tests can use it.

#include <cstdint>

namespace fcswitch {

// Which of a PABO queue's sub-queues a packet waits in (PABO §II-E), and is charged to.
enum class PaboSubqueue : uint8_t { kNone, kNormal, kBounce };

struct PacketMeta {
  uint8_t ingress_port;    // switch port index the packet arrived on (at most 64 ports)
  uint8_t priority;        // ingress priority: the (port, priority) occupancy it is charged to
  uint8_t egress_queue;    // queue it waits in at the egress port (0..7, or kLossyQueue)
  uint8_t lossy : 1;       // 1: also charged to the lossy pool
  uint8_t pabo : 2;        // PaboSubqueue: the PABO sub-queue it is charged to, if any
  uint32_t charged_bytes;  // bytes charged to the shared buffer; released on departure
};

static_assert(sizeof(PacketMeta) == 8);

// Whether two packets are charged to the same counts, their bytes aside: a run of such packets
// is charged (FWD) and released (TX) at once. Field by field: FWD compares a PacketMeta it has
// just built with narrow stores, and one load of the four bytes would wait for those stores to
// reach the cache (a failed store-to-load forward, a third of FWD's time where it was tried).
inline bool same_charges(const PacketMeta& a, const PacketMeta& b) {
  return a.ingress_port == b.ingress_port && a.priority == b.priority &&
         a.egress_queue == b.egress_queue && a.lossy == b.lossy && a.pabo == b.pabo;
}

}  // namespace fcswitch

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

}  // namespace fcswitch

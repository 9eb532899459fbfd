#pragma once
// What the switch remembers about a packet between FWD and its departure. It lives in an
// mbuf dynamic field (lib/dpdk/mbuf_meta.h); this header only defines the layout so that
// pure code and tests can use it.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace fcswitch {

// Which of a PABO queue's sub-queues a packet waits in (PABO §II-E), and is charged to.
enum class PaboSubqueue : uint8_t { kNone, kNormal, kBounce };

struct PacketMeta {
  uint8_t ingress_port;    // switch port index the packet arrived on (at most 64 ports)
  uint8_t priority;        // ingress priority: the (port, priority) occupancy it is charged to
  uint8_t egress_queue;    // queue it waits in at the egress port (0..7, or kLossyQueue)
  uint8_t lossy : 1;       // 1: also charged to the lossy pool
  uint8_t pabo : 2;        // PaboSubqueue: the PABO sub-queue it is charged to, if any
  uint8_t unused : 5 = 0;  // defined, so that the four bytes before the count say all it is
                           // charged to (same_charges)
  uint32_t charged_bytes;  // bytes charged to the shared buffer; released on departure
};

static_assert(sizeof(PacketMeta) == 8);

// Whether two packets are charged to the same counts, their bytes aside: a run of such packets
// is charged (FWD) and released (TX) at once. One compare of the four bytes before the count
// (field by field it was ~20 instructions a packet).
inline bool same_charges(const PacketMeta& a, const PacketMeta& b) {
  static_assert(offsetof(PacketMeta, charged_bytes) == sizeof(uint32_t));
  uint32_t key_a, key_b;
  std::memcpy(&key_a, &a, sizeof key_a);
  std::memcpy(&key_b, &b, sizeof key_b);
  return key_a == key_b;
}

}  // namespace fcswitch

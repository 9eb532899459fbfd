#pragma once
// What the switch remembers about a packet between FWD and its departure. It lives in an
// mbuf dynamic field (lib/dpdk/mbuf_meta.h); this header only defines the layout so that
// pure code and tests can use it.

#include <bit>
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
  uint32_t charged_bytes;  // bytes charged to the shared buffer; released on departure
};

static_assert(sizeof(PacketMeta) == 8);

// A PacketMeta composed in a register, to be stored with one 8-byte store: TX loads it whole,
// and a load that spans several narrower stores still on their way to the cache cannot be
// forwarded from them (it waits for them all).
constexpr PacketMeta make_packet_meta(uint8_t ingress_port, uint8_t priority, uint8_t egress_queue,
                                      bool lossy, PaboSubqueue pabo, uint32_t charged_bytes) {
  return std::bit_cast<PacketMeta>(uint64_t{ingress_port} | uint64_t{priority} << 8 |
                                   uint64_t{egress_queue} << 16 | uint64_t{lossy} << 24 |
                                   uint64_t{static_cast<uint8_t>(pabo)} << 25 |
                                   uint64_t{charged_bytes} << 32);
}
// The layout that composition assumes (x86-64 psABI: bit-fields from the low bit up). Clang 14
// cannot evaluate a bit_cast to bit-fields at compile time (the sanitizer build is clang's):
// there, packet_meta_test checks the same at run time.
#if !defined(__clang__)
static_assert(make_packet_meta(1, 2, 3, true, PaboSubqueue::kBounce, 7).ingress_port == 1 &&
              make_packet_meta(1, 2, 3, true, PaboSubqueue::kBounce, 7).priority == 2 &&
              make_packet_meta(1, 2, 3, true, PaboSubqueue::kBounce, 7).egress_queue == 3 &&
              make_packet_meta(1, 2, 3, true, PaboSubqueue::kBounce, 7).lossy == 1 &&
              make_packet_meta(1, 2, 3, true, PaboSubqueue::kBounce, 7).pabo ==
                  static_cast<uint8_t>(PaboSubqueue::kBounce) &&
              make_packet_meta(1, 2, 3, true, PaboSubqueue::kBounce, 7).charged_bytes == 7);
#endif

// Whether two packets are charged to the same counts, their bytes aside: a run of such packets
// is charged (FWD) and released (TX) at once. One compare of the low four bytes (every field
// but charged_bytes), masked to the fields' 27 bits. Every PacketMeta is stored whole
// (make_packet_meta, or copied as 8 bytes), and a run adds to charged_bytes alone, in the
// upper four: the load is forwarded from the store that wrote it. (Loaded behind narrower
// stores of the same bytes, it would wait for them all: tried while FWD still built its
// PacketMeta field by field, that cost a third of FWD's time.)
inline bool same_charges(const PacketMeta& a, const PacketMeta& b) {
  constexpr uint32_t kChargeFieldBits = (1u << 27) - 1;  // make_packet_meta's bits 0..26
  uint32_t low_a, low_b;
  std::memcpy(&low_a, &a, sizeof low_a);
  std::memcpy(&low_b, &b, sizeof low_b);
  return ((low_a ^ low_b) & kChargeFieldBits) == 0;
}

}  // namespace fcswitch

#pragma once
// The switch's PacketMeta in an mbuf, and the RX time in a dynamic field. The offset is looked
// up once per switch (DPDK returns the same offset for the same name), so nothing here is
// global.
//
// The meta lies in the mbuf's first cache line, in the 8 bytes of the RX hash (RSS, flow
// director), which nothing reads once RX has passed the frame on: that line and the frame's
// data are all FWD touches. In a dynamic field (the second line, which RX writes for the
// RX time) it cost FWD on a core of its own one more line from RX's core a packet.

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "core/packet_meta.h"

namespace fcswitch::dpdk {

static_assert(sizeof(PacketMeta) == sizeof(rte_mbuf::hash) &&
                  offsetof(rte_mbuf, hash) % alignof(PacketMeta) == 0 &&
                  offsetof(rte_mbuf, hash) + sizeof(PacketMeta) <= RTE_CACHE_LINE_MIN_SIZE,
              "PacketMeta takes the RX hash's place in the mbuf's first cache line");

class MbufMeta {
 public:
  MbufMeta();  // registers the fields; throws std::runtime_error on failure
  PacketMeta& operator()(rte_mbuf* m) const { return *reinterpret_cast<PacketMeta*>(&m->hash); }
  // When the switch received the frame (its RX poll's time, in the datapath's ticks): TX reads
  // it for the time the frame spent inside the switch.
  uint64_t& rx_ticks(rte_mbuf* m) const {
    return *RTE_MBUF_DYNFIELD(m, rx_ticks_offset_, uint64_t*);
  }

 private:
  int rx_ticks_offset_;
};

}  // namespace fcswitch::dpdk

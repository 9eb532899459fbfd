#pragma once
// The switch's PacketMeta in an mbuf dynamic field. The offset is looked up once per switch
// (DPDK returns the same offset for the same name), so nothing here is global.

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "core/packet_meta.h"

namespace fcswitch::dpdk {

class MbufMeta {
 public:
  MbufMeta();  // registers the fields; throws std::runtime_error on failure
  PacketMeta& operator()(rte_mbuf* m) const { return *RTE_MBUF_DYNFIELD(m, offset_, PacketMeta*); }
  // When the switch received the frame (its RX poll's time, in the datapath's ticks): TX reads
  // it for the time the frame spent inside the switch.
  uint64_t& rx_ticks(rte_mbuf* m) const {
    return *RTE_MBUF_DYNFIELD(m, rx_ticks_offset_, uint64_t*);
  }

 private:
  int offset_;
  int rx_ticks_offset_;
};

}  // namespace fcswitch::dpdk

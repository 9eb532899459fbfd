#include "dpdk/frame_room.h"

#include <rte_memcpy.h>

namespace fcswitch::dpdk {

rte_mbuf* copy_frame(const rte_mbuf* m) {
  if (m->nb_segs > 1) return rte_pktmbuf_copy(m, m->pool, 0, UINT32_MAX);
  rte_mbuf* copy = rte_pktmbuf_alloc(m->pool);
  if (!copy) return nullptr;
  const uint16_t carried = rte_pktmbuf_data_len(m);
  make_tailroom(copy, carried);
  char* data = rte_pktmbuf_append(copy, carried);
  if (!data) {
    rte_pktmbuf_free(copy);
    return nullptr;
  }
  rte_memcpy(data, rte_pktmbuf_mtod(m, const char*), carried);
  copy->pkt_len = rte_pktmbuf_pkt_len(m);
  // As rte_pktmbuf_copy: the header's fields, the dynamic fields, the offload flags but those
  // of an attached buffer.
  __rte_pktmbuf_copy_hdr(copy, m);
  copy->ol_flags = m->ol_flags & ~(RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL);
  return copy;
}

}  // namespace fcswitch::dpdk

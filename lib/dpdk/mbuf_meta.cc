#include "dpdk/mbuf_meta.h"

#include <rte_errno.h>

#include <stdexcept>
#include <string>

namespace fcswitch::dpdk {

MbufMeta::MbufMeta() {
  static const rte_mbuf_dynfield kRxTicks = {"fcswitch_rx_ticks", sizeof(uint64_t),
                                             alignof(uint64_t), 0};
  rx_ticks_offset_ = rte_mbuf_dynfield_register(&kRxTicks);
  if (rx_ticks_offset_ < 0)
    throw std::runtime_error(std::string("mbuf dynfield: ") + rte_strerror(rte_errno));
}

}  // namespace fcswitch::dpdk

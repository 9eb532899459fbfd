#include "switch/fwd/next_hop.h"

#include "switch/flow_key.h"
#include "topology/flow_hash.h"
#include "wire/ttl_decrement.h"

namespace fcswitch {

bool NextHop::ttl_expired(rte_mbuf* m, const wire::FrameHeader& header) const {
  return wire::decrement_ttl(rte_pktmbuf_mtod(m, uint8_t*), header) == wire::TtlResult::kExpired;
}

int NextHop::ecmp_member(int group, const rte_mbuf* m, const wire::FrameHeader& header) const {
  const auto& members = settings_.ecmp_groups[group - L2Fib::kGroupBase];
  const auto key = flow_key(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), header);
  return members[topology::ecmp_member(topology::flow_hash(key, settings_.ecmp_seed),
                                       static_cast<int>(members.size()))];
}

}  // namespace fcswitch

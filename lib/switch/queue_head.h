#pragma once
// The head of one egress queue as its TX task sees it: a burst pulled from the queue's ring,
// with each packet's length read once when it is pulled, for the scheduler (DWRR deficits) and
// the egress gates (a budget over the head's lengths, fc/engine.h) alike.

#include <cstdint>

#include "switch/burst.h"

struct rte_mbuf;

namespace fcswitch {

struct QueueHead {
  uint16_t first = 0;  // the next packet to send
  uint16_t count = 0;  // packets from `first` on
  rte_mbuf* pkts[kBurstSize];
  uint32_t bytes[kBurstSize];  // rte_pktmbuf_pkt_len of pkts[i]

  const uint32_t* head_bytes() const { return bytes + first; }
};

}  // namespace fcswitch

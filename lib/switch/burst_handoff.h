#pragma once
// A burst RX(p) hands to FWD directly when both run on one lcore (run-to-completion, the
// compact layout): RX receives into it no more than it has room for, FWD takes it whole in
// its next poll, in that input's turn — in order, credit frames among the data, as through
// the fwd ring, but with no ring (and so no fwd_ring_full). One thread writes both ends;
// `count` is atomic only so that the control thread may read it (progress, shutdown).

#include <atomic>
#include <cstdint>

#include "switch/burst.h"

struct rte_mbuf;

namespace fcswitch {

struct BurstHandoff {
  std::atomic<uint16_t> count{0};
  rte_mbuf* pkts[kBurstSize];

  uint16_t held() const { return count.load(std::memory_order_relaxed); }
  uint16_t room() const { return static_cast<uint16_t>(kBurstSize - held()); }
};

}  // namespace fcswitch

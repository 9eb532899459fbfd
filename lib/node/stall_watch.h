#pragma once
// Whether a running switch has stalled: data packets held and no data moving (received,
// forwarded, sent or dropped) — what a PFC deadlock looks like from inside one switch of the cycle,
// and what a queue waiting for credits that never come looks like too. The control thread feeds it
// samples; it says since when the switch has been stalled, the longest stall, and which (port,
// priority) queues spent the stall at a closed gate (paused, out of credits, rate 0): the switch's
// share of the deadlock evidence (the testbed rehearsal joins three of them).

#include <cstdint>
#include <string>
#include <vector>

#include "node/switch_node.h"

namespace fcswitch {

struct BlockedQueue {
  int port = 0;
  int priority = 0;
};

class StallWatch {
 public:
  explicit StallWatch(const SwitchNode& node);

  // Control thread, now and then (`now_ns` of a steady clock).
  void observe(uint64_t now_ns);

  bool stalled() const { return stalled_since_ns_ != 0; }
  // The current stall (0 when moving or empty) and the longest one, as of the last sample.
  uint64_t stalled_ns() const { return stalled() ? last_ns_ - stalled_since_ns_ : 0; }
  uint64_t longest_ns() const { return longest_ns_; }
  uint64_t held() const { return held_; }  // data packets, as of the last sample
  // The queues at a closed gate for at least 90 % of the current stall.
  std::vector<BlockedQueue> blocked_queues() const;
  // "held 1234 packets, nothing moved for 2.0 s; at a closed gate: cw prio 3 (pfc), …"
  std::string describe() const;

 private:
  uint64_t blocked_ns(int port, int priority) const;

  const SwitchNode& node_;
  SwitchProgress last_;
  uint64_t last_ns_ = 0;
  uint64_t stalled_since_ns_ = 0;  // 0: not stalled
  uint64_t longest_ns_ = 0;
  uint64_t held_ = 0;
  // Per (port, priority): the queue's blocked time when the stall began.
  std::vector<uint64_t> blocked_at_start_;
};

}  // namespace fcswitch

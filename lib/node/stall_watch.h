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
  // At the stop (the last sample): the current stall, or a stall of at least
  // kReportedStallNs that something moved out of within kStopGraceNs before it, with the
  // queues it held at a closed gate. The peers stop together (the rehearsal's hosts at their
  // --duration, its switches by SIGTERM), and a peer taking its port down moves what waited
  // for it: the stall the flows ended in is what this reports, not that last motion.
  uint64_t stalled_at_stop_ns() const;
  std::vector<BlockedQueue> blocked_at_stop() const;
  static constexpr uint64_t kReportedStallNs = 1'000'000'000;  // a stall fcswitch says
  static constexpr uint64_t kStopGraceNs = 250'000'000;
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
  // The last stall of at least kReportedStallNs that ended: when, how long, its queues.
  uint64_t ended_at_ns_ = 0;
  uint64_t ended_length_ns_ = 0;
  std::vector<BlockedQueue> ended_blocked_;
  bool ended_near_stop() const {
    return ended_length_ns_ && last_ns_ - ended_at_ns_ <= kStopGraceNs;
  }
  uint64_t held_ = 0;
  // Per (port, priority): the queue's blocked time when the stall began.
  std::vector<uint64_t> blocked_at_start_;
};

}  // namespace fcswitch

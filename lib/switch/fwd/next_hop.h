#pragma once
// The L3 part of a hop in FWD: an IP packet loses one TTL per switch ([switch] decrement_ttl; at
// 0 it is dropped, ttl_expired), and a FIB entry that names an ECMP group becomes the member the
// packet's flow hashes to (topology/flow_hash.h, the same function the lab's route prediction
// uses), so that a flow keeps to one path.

#include <rte_mbuf.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "switch/l2_fib.h"
#include "wire/frame_header.h"

namespace fcswitch {

struct NextHopSettings {
  // The groups the FIB's group entries point at (L2Fib::kGroupBase + index), and this switch's
  // hash seed.
  std::vector<std::vector<uint16_t>> ecmp_groups;
  uint32_t ecmp_seed = 0;
  bool decrement_ttl = false;
};

class NextHop {
 public:
  explicit NextHop(NextHopSettings settings) : settings_(std::move(settings)) {}

  // Replaced with the FIB (SwitchNode::replace_fib).
  void set_ecmp_groups(std::vector<std::vector<uint16_t>> groups) {
    settings_.ecmp_groups = std::move(groups);
  }
  bool decrements_ttl() const { return settings_.decrement_ttl; }
  // One TTL off an IP packet (a no-op for others); true when it reached 0 (to be dropped).
  bool ttl_expired(rte_mbuf* m, const wire::FrameHeader& header) const;
  // What the FIB said of a destination (a port, L2Fib::kUnknown or a group) as a port or
  // kUnknown: a group's member by the packet's flow.
  int out_port(int target, const rte_mbuf* m, const wire::FrameHeader& header) const {
    return L2Fib::is_group(target) ? ecmp_member(target, m, header) : target;
  }

 private:
  int ecmp_member(int group, const rte_mbuf* m, const wire::FrameHeader& header) const;

  NextHopSettings settings_;
};

}  // namespace fcswitch

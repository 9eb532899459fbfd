#include "node/stall_watch.h"

#include <fmt/format.h>

#include <algorithm>

namespace fcswitch {

StallWatch::StallWatch(const SwitchNode& node)
    : node_(node),
      last_(node.progress()),
      blocked_at_start_(static_cast<size_t>(node.ports()) * kNumPriorities, 0) {}

uint64_t StallWatch::blocked_ns(int port, int priority) const {
  return node_.tx(port).has_engine(priority) ? node_.tx(port).blocked_ns(priority) : 0;
}

void StallWatch::observe(uint64_t now_ns) {
  SwitchProgress now = node_.progress();
  // Read apart from `held`, the control count may be a frame ahead of it.
  held_ = now.held > now.held_control ? now.held - now.held_control : 0;
  // Stalled: data is held and no data moved although every task polled (so none is merely
  // descheduled mid-burst). A sample taken before every task polled twice says nothing: it
  // neither ends a stall nor starts one (a starved lcore is not motion). Our own flow-control
  // frames are not data: a port whose link is down (a host not started yet) keeps one
  // waiting, and that is no deadlock.
  const SwitchNode::Motion motion = SwitchNode::motion(last_, now);
  if (motion == SwitchNode::Motion::kTooSoon) return;
  const bool stuck = now.held > now.held_control && motion == SwitchNode::Motion::kStill;
  if (stuck && !stalled()) {
    stalled_since_ns_ = last_ns_ ? last_ns_ : now_ns;
    for (int p = 0; p < node_.ports(); ++p)
      for (int prio = 0; prio < kNumPriorities; ++prio)
        blocked_at_start_[static_cast<size_t>(p) * kNumPriorities + prio] = blocked_ns(p, prio);
  } else if (!stuck) {
    if (stalled_ns() >= kReportedStallNs) {
      ended_at_ns_ = now_ns;
      ended_length_ns_ = stalled_ns();
      ended_blocked_ = blocked_queues();
    }
    stalled_since_ns_ = 0;
  }
  last_ = std::move(now);
  last_ns_ = now_ns;
  longest_ns_ = std::max(longest_ns_, stalled_ns());
}

std::vector<BlockedQueue> StallWatch::blocked_queues() const {
  std::vector<BlockedQueue> out;
  const uint64_t stall = stalled_ns();
  if (!stall) return out;
  for (int p = 0; p < node_.ports(); ++p)
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      // TX brings blocked time up to date at its polls, which go on through a stall.
      const uint64_t grew =
          blocked_ns(p, prio) - blocked_at_start_[static_cast<size_t>(p) * kNumPriorities + prio];
      if (grew * 10 >= stall * 9) out.push_back({p, prio});
    }
  return out;
}

uint64_t StallWatch::stalled_at_stop_ns() const {
  if (stalled()) return stalled_ns();
  return ended_near_stop() ? ended_length_ns_ : 0;
}

std::vector<BlockedQueue> StallWatch::blocked_at_stop() const {
  if (stalled()) return blocked_queues();
  return ended_near_stop() ? ended_blocked_ : std::vector<BlockedQueue>{};
}

std::string StallWatch::describe() const {
  std::string s = fmt::format("{} packets held, nothing moved for {:.1f} s", held_,
                              static_cast<double>(stalled_ns()) / 1e9);
  const std::vector<BlockedQueue> blocked = blocked_queues();
  if (!blocked.empty()) {
    s += "; at a closed gate:";
    for (const BlockedQueue& q : blocked)
      s += fmt::format(" {} prio {} ({})", node_.config().ports[q.port].name, q.priority,
                       node_.engine_name(q.port, q.priority));
  }
  return s;
}

}  // namespace fcswitch

#pragma once
// Priorities and egress queues of a switch port.

#include <bit>
#include <cstdint>

namespace fcswitch {

// IEEE 802.1Q: eight priorities (PCP values). 7 is the highest.
inline constexpr int kNumPriorities = 8;

// Each egress port has one queue per priority plus a lossy queue for traffic that is
// demoted out of the lossless classes (Tagger's "no rule" case, later PABO/Pyrrha spill).
inline constexpr int kLossyQueue = kNumPriorities;
inline constexpr int kNumEgressQueues = kNumPriorities + 1;

// Bit i set = priority i (queue i) selected.
using PriorityMask = uint8_t;
using QueueMask = uint16_t;

constexpr bool has_priority(PriorityMask mask, int priority) {
  return (mask >> priority) & 1u;
}

// Calls f(i) for each bit i set in `mask`, lowest first: the priorities or queues it selects.
template <typename Mask, typename F>
constexpr void for_each_set(Mask mask, F&& f) {
  for (unsigned left = mask; left; left &= left - 1) f(std::countr_zero(left));
}

// The same, highest first (a strict-priority order).
template <typename Mask, typename F>
constexpr void for_each_set_descending(Mask mask, F&& f) {
  for (unsigned left = mask; left;) {
    const int bit = std::bit_width(left) - 1;
    f(bit);
    left &= ~(1u << bit);
  }
}

}  // namespace fcswitch

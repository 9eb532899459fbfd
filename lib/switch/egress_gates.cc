#include "switch/egress_gates.h"

#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/units.h"
#include "switch/burst.h"

namespace fcswitch {

EgressGates::EgressGates(std::string name, std::array<fc::EngineInstance, kNumPriorities>& engines,
                         const fc::WatchdogConfig& watchdog, const TickRate& ticks)
    : name_(std::move(name)), ticks_(ticks), watchdog_config_(watchdog) {
  allowance_.fill(kUnlimited);
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    gates_[prio] = std::move(engines[prio].gate);
    if (!gates_[prio]) continue;
    gated_ |= static_cast<QueueMask>(1u << prio);
    if (gates_[prio]->polled()) polled_ |= static_cast<QueueMask>(1u << prio);
    watchdogs_[prio].emplace(watchdog, ticks);
  }
}

bool EgressGates::take_messages(rte_ring* control_ring, uint64_t posted) {
  // Most polls find none: not even the burst's array is set up for them.
  if (!messages_waiting(posted)) return false;
  fc::ControlMessage messages[kBurstSize];
  const unsigned n = rte_ring_sc_dequeue_burst_elem(
      control_ring, messages, sizeof(fc::ControlMessage), kBurstSize, nullptr);
  messages_taken_ += n;
  for (unsigned i = 0; i < n; ++i) {
    fc::EgressGate* gate = gates_[messages[i].priority].get();
    if (gate) {
      gate->on_message(messages[i]);
    } else {
      messages_without_gate_.increment();  // the neighbour runs an engine we do not
    }
  }
  return n > 0;
}

QueueMask EgressGates::check(uint64_t now, QueueMask backlogged,
                             const std::array<QueueHead, kNumEgressQueues>& heads,
                             QueueMask& dropping) {
  QueueMask open = static_cast<QueueMask>(~gated_);
  dropping = 0;
  // A queue blocked at the last check stayed blocked until now: nothing that could open it
  // happened without a poll (a gate that opens by itself is a wake-up, next_action_ticks),
  // which matters to the lab's virtual clock, which polls only what has work.
  const uint64_t elapsed = now - blocked_checked_ticks_;
  blocked_checked_ticks_ = now;
  for_each_set(gated_, [&](int prio) {
    const auto bit = static_cast<QueueMask>(1u << prio);
    const bool has_packets = backlogged & bit;
    // An empty queue's gate is asked about a minimum-size frame: is it closed at all.
    const uint16_t budget =
        has_packets ? gates_[prio]->budget(now, heads[prio].head_bytes(), heads[prio].count)
                    : gates_[prio]->budget(now, &kEthernetMinFrameBytes, 1);
    const bool closed = budget == 0;
    if (blocked_ & bit) blocked_ticks_[prio].add(elapsed);
    blocked_ = static_cast<QueueMask>(closed && has_packets ? blocked_ | bit : blocked_ & ~bit);
    fc::GateWatchdog& dog = *watchdogs_[prio];
    const fc::WatchdogEvent event = dog.observe(now, closed, has_packets);
    if (event == fc::WatchdogEvent::kStormDetected) {
      spdlog::warn("{}: queue {} held by its gate with packets waiting for {} ns (storm {})", name_,
                   prio, watchdog_config_.detect_ns, dog.storms());
    } else if (event == fc::WatchdogEvent::kRestored) {
      spdlog::info("{}: queue {} storm over", name_, prio);
    }
    storming_ = static_cast<QueueMask>(dog.storm() ? storming_ | bit : storming_ & ~bit);
    if (dog.dropping()) {
      if (has_packets) dropping |= bit;
      return;
    }
    allowance_[prio] = dog.forwarding() ? kUnlimited : budget;
    if (!closed || dog.forwarding()) open |= bit;
  });
  return open;
}

uint64_t EgressGates::blocked_ns(int priority, uint64_t now_ticks) const {
  uint64_t ticks = blocked_ticks_[priority].read();
  if (blocked_ >> priority & 1u && now_ticks > blocked_checked_ticks_)
    ticks += now_ticks - blocked_checked_ticks_;
  return ticks_.to_ns(ticks);
}

uint64_t EgressGates::next_action_ticks(QueueMask backlogged, uint64_t after) const {
  uint64_t next = kNeverTicks;
  for_each_set(gated_, [&](int prio) {  // a watchdog stands beside each gate
    // A gate that opens matters only to a queue with packets; one open already is no event.
    if (backlogged >> prio & 1u) {
      const uint64_t opens = gates_[prio]->next_action_ticks();
      if (opens > after) next = std::min(next, opens);
    }
    // A watchdog acts when its queue has been held long enough, with or without a poll.
    const uint64_t acts = watchdogs_[prio]->next_action_ticks();
    if (acts > after) next = std::min(next, acts);
  });
  return next;
}

}  // namespace fcswitch

#pragma once
// The sender halves of port p's flow-control engines (docs/architecture.md): per priority an egress
// gate fed with the messages RX(p) decoded from the downstream's frames, its storm watchdog,
// and the time its queue waited behind it. TX(p) asks once per burst which queues may send
// and how many of their head packets each (EgressGate::budget), and says once what went
// (commit). TX(p)'s thread; other threads read the counters.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/owned_counter.h"
#include "core/tick_rate.h"
#include "core/traffic_class.h"
#include "fc/engine.h"
#include "fc/gate_watchdog.h"
#include "switch/queue_head.h"

struct rte_ring;

namespace fcswitch {

class EgressGates {
 public:
  // A queue without a gate, or one whose watchdog forwards past it: no limit per burst.
  static constexpr uint16_t kUnlimited = UINT16_MAX;

  // Takes the gates out of `engines`; `name` is the task's, for the watchdog's log lines.
  EgressGates(std::string name, std::array<fc::EngineInstance, kNumPriorities>& engines,
              const fc::WatchdogConfig& watchdog, const TickRate& ticks);

  // The messages RX(p) decoded, to their gates. True if there were any. `posted`: the
  // messages RX(p) ever put in the ring (SwitchState::control_posted), read by the caller.
  bool take_messages(rte_ring* control_ring, uint64_t posted);
  // Whether the ring holds messages this object has not taken.
  bool messages_waiting(uint64_t posted) const { return posted != messages_taken_; }
  // Once per TX poll, before check: lets the gates' timers run out.
  void poll(uint64_t now) {
    for_each_set(polled_, [&](int prio) { gates_[prio]->poll(now); });
  }
  // Once per burst: the queues that may send now, each with its allowance(); the watchdogs
  // observe their gates and account blocked time. `dropping` gets the backlogged queues
  // whose watchdog drops (the caller empties them).
  QueueMask check(uint64_t now, QueueMask backlogged,
                  const std::array<QueueHead, kNumEgressQueues>& heads, QueueMask& dropping);
  // Nothing for check() to account or act on while no queue holds packets: no queue was
  // blocked at the last check and no watchdog is in a storm (an alerted one stands down, an
  // acting one times its restore, when asked about an empty queue). A TX task with empty
  // queues and quiet gates skips the burst altogether.
  bool quiet() const { return !blocked_ && !storming_; }
  // How many of queue `q`'s head packets may go (valid after check or refresh).
  uint16_t allowance(int q) const { return allowance_[q]; }
  const std::array<uint16_t, kNumEgressQueues>& allowances() const { return allowance_; }
  // The head of `q` was refilled after its packets went (and were committed).
  void refresh(int q, uint64_t now, const QueueHead& head) {
    if (gated_ >> q & 1u) allowance_[q] = ask(q, now, head.head_bytes(), head.count);
  }
  // `count` packets, `bytes` long, went from queue `q`.
  void commit(int q, uint64_t now, const uint32_t* bytes, uint16_t count) {
    if (count && (gated_ >> q & 1u)) gates_[q]->commit(now, bytes, count);
  }

  QueueMask gated() const { return gated_; }
  bool has_gate(int priority) const { return gates_[priority] != nullptr; }
  uint64_t messages_without_gate() const { return messages_without_gate_.read(); }
  uint64_t blocked_ns(int priority) const { return ticks_.to_ns(blocked_ticks_[priority].read()); }
  // The same, counting a queue still blocked at `now_ticks` since the last check: for a
  // caller that may poll rarely (the lab's virtual clock). TX's thread only.
  uint64_t blocked_ns(int priority, uint64_t now_ticks) const;
  uint64_t watchdog_storms(int priority) const {
    return watchdogs_[priority] ? watchdogs_[priority]->storms() : 0;
  }
  uint64_t watchdog_restores(int priority) const {
    return watchdogs_[priority] ? watchdogs_[priority]->restores() : 0;
  }
  void counters(int priority, const fc::CounterSink& sink) const {
    if (gates_[priority]) gates_[priority]->counters(sink);
  }
  // The earliest time a gate of a backlogged queue opens, or a watchdog acts, after `after`.
  uint64_t next_action_ticks(QueueMask backlogged, uint64_t after) const;

 private:
  uint16_t ask(int q, uint64_t now, const uint32_t* bytes, uint16_t count) const {
    return watchdogs_[q]->forwarding() ? kUnlimited : gates_[q]->budget(now, bytes, count);
  }

  std::string name_;
  TickRate ticks_;
  fc::WatchdogConfig watchdog_config_;
  std::array<std::unique_ptr<fc::EgressGate>, kNumPriorities> gates_;
  QueueMask gated_ = 0;
  QueueMask polled_ = 0;         // the gates whose poll() does something (fc::EgressGate::polled)
  uint64_t messages_taken_ = 0;  // from the control ring, ever
  std::array<std::optional<fc::GateWatchdog>, kNumPriorities> watchdogs_;
  std::array<uint16_t, kNumEgressQueues> allowance_{};
  QueueMask blocked_ = 0;   // gated queues that held packets behind a closed gate at the last check
  QueueMask storming_ = 0;  // gated queues whose watchdog was in a storm after the last check
  uint64_t blocked_checked_ticks_ = 0;
  std::array<OwnedCounter, kNumPriorities> blocked_ticks_;
  OwnedCounter messages_without_gate_;
};

}  // namespace fcswitch

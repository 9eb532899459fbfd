#pragma once
// The receiver halves of port p's flow-control engines (DESIGN.md §3): a feedback generator
// per priority watching the ingress occupancy of (p, priority) and asking for frames upstream,
// and, where the generator pauses, the τ meter of that input (fc/response_time_meter.h).
// TX(p)'s thread polls it; other threads read levels and counters.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include "core/traffic_class.h"
#include "fc/engine.h"
#include "fc/feedback_out.h"
#include "fc/response_time_meter.h"
#include "switch/switch_state.h"

namespace fcswitch {

class PortFeedback {
 public:
  // Takes the generators out of `engines`. `pause_quiet_ticks`: no frame for this long after
  // XOFF means the upstream stopped (the τ meter's end of a response).
  PortFeedback(int port, std::array<fc::EngineInstance, kNumPriorities>& engines,
               const TickRate& ticks, uint64_t pause_quiet_ticks, const SwitchState& state);

  // Polls every generator; what they ask for is merged into `fresh`. True if any asked.
  bool poll(uint64_t now, fc::FeedbackOut& fresh);

  bool has_generator(int priority) const { return generators_[priority] != nullptr; }
  // The generator's level (fc::FeedbackGenerator::level); 0 without one.
  uint64_t level(int priority) const {
    return generators_[priority] ? generators_[priority]->level() : 0;
  }
  const fc::ResponseTimeMeter* response_time(int priority) const {
    return response_times_[priority].get();
  }
  uint64_t next_action_ticks() const;
  // Any thread (fcswitch's link watch, the lab's events): the link came back. The generators
  // hear it (fc::FeedbackGenerator::link_restored) at the next poll, on TX's thread.
  void link_restored() { restores_requested_.fetch_add(1, std::memory_order_release); }
  void counters(int priority, const fc::CounterSink& sink) const {
    if (generators_[priority]) generators_[priority]->counters(sink);
  }

 private:
  int port_;
  const SwitchState& state_;
  std::array<std::unique_ptr<fc::FeedbackGenerator>, kNumPriorities> generators_;
  PriorityMask generating_ = 0;
  std::array<std::unique_ptr<fc::ResponseTimeMeter>, kNumPriorities> response_times_;
  std::array<uint64_t, kNumPriorities> paused_level_{};  // the generator's level at the last poll
  std::atomic<uint32_t> restores_requested_{0};
  uint32_t restores_seen_ = 0;
};

}  // namespace fcswitch

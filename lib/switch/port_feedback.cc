#include "switch/port_feedback.h"

#include <algorithm>

namespace fcswitch {

PortFeedback::PortFeedback(int port, std::array<fc::EngineInstance, kNumPriorities>& engines,
                           const TickRate& ticks, uint64_t pause_quiet_ticks, SwitchState& state)
    : port_(port), state_(state) {
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    generators_[prio] = std::move(engines[prio].generator);
    if (!generators_[prio]) {
      // Nothing of this priority's input is anyone's news (before any task runs).
      state.feedback_bands.publish(port, prio, fc::OccupancyBand::any_occupancy());
      continue;
    }
    generating_ |= static_cast<PriorityMask>(1u << prio);
    if (!generators_[prio]->level_pauses()) continue;
    response_times_[prio] = std::make_unique<fc::ResponseTimeMeter>(ticks, pause_quiet_ticks);
    metered_ |= static_cast<PriorityMask>(1u << prio);
  }
}

bool PortFeedback::poll(uint64_t now, fc::FeedbackOut& fresh) {
  if (!generating_) return false;
  if (const uint32_t restores = restores_requested_.load(std::memory_order_acquire);
      restores != restores_seen_) {
    restores_seen_ = restores;
    for (auto& generator : generators_)
      if (generator) generator->link_restored();
  }
  // Most ports generate for one or two priorities: only those are visited.
  for_each_set(generating_, [&](int prio) {
    const int slot = SwitchState::occupancy_slot(port_, prio);
    // ABR before occupancy: a packet FWD counts in between then lowers the limit rather
    // than raising it (FCCL = ABR + free must never promise a block twice).
    const uint32_t blocks = received_blocks(prio);
    const uint64_t occupancy = state_.ingress_occupancy.value(slot);
    fc::FeedbackGenerator& generator = *generators_[prio];
    generator.poll(now, fc::IngressView{occupancy, blocks}, fresh);
    // Once RX has stopped (shutdown) the input is quiet because RX frees what arrives
    // (after_stop) without noting it, not because the upstream stopped: no τ to see.
    fc::ResponseTimeMeter* meter = response_times_[prio].get();
    if (meter && !state_.rx_stopped.load(std::memory_order_relaxed)) {
      const uint64_t level = generator.level();
      const uint64_t last_arrival = state_.last_arrival_ticks[slot].read();
      if (level && !paused_level_[prio]) {
        meter->on_pause(now);
      } else if (!level && paused_level_[prio]) {
        meter->on_resume(now, last_arrival);
      } else {
        meter->observe(now, last_arrival);
      }
      paused_level_[prio] = level;
    }
  });
  return !fresh.empty();
}

uint64_t PortFeedback::next_action_ticks() const {
  uint64_t next = kNeverTicks;
  for_each_set(generating_,
               [&](int prio) { next = std::min(next, generators_[prio]->next_action_ticks()); });
  return next;
}

}  // namespace fcswitch

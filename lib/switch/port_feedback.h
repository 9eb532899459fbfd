#pragma once
// The receiver halves of port p's flow-control engines (docs/architecture.md): a feedback generator
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
               const TickRate& ticks, uint64_t pause_quiet_ticks, SwitchState& state);

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
  // For TX's quiet polls: note what the generators read now (the ingress occupancy and
  // received blocks of their priorities, links restored); then, whether it is unchanged.
  // Only what each generator would act on (fc::FeedbackGenerator::quiet_band), as it was when
  // noted: an occupancy still in its band, or, with an empty band, no change at all. A poll
  // that changed a generator's band sent feedback, and was not quiet, or only made fewer
  // changes matter (fc::FeedbackGenerator::quiet_band). A τ meter that measures a pause sees
  // every arrival. Where the switch's tasks share a thread and wake TX by tx_wakes (the lab),
  // the bands go to SwitchState::feedback_bands too.
  void note_input() {
    watch_any_ = banded_ = 0;
    const bool publish = state_.tx_wakes.enabled();
    for_each_set(generating_, [&](int prio) {
      // A meter measures only while its generator holds the upstream paused: its object (a
      // cache miss) is looked at only then.
      const fc::ResponseTimeMeter* meter = response_times_[prio].get();
      const fc::OccupancyBand band = paused_level_[prio] && meter && meter->measuring()
                                         ? fc::OccupancyBand::any_change()
                                         : generators_[prio]->quiet_band();
      const auto bit = static_cast<PriorityMask>(1u << prio);
      if (band.empty()) {
        watch_any_ |= bit;
      } else {
        banded_ |= bit;
      }
      // Most notes find the band they published (PFC below XOFF all along).
      if (band == bands_[prio]) return;
      bands_[prio] = band;
      if (publish) state_.feedback_bands.publish(port_, prio, band);
    });
    noted_counts_ = input_counts();
    for_each_set(watch_any_, [&](int prio) { noted_blocks_[prio] = received_blocks(prio); });
  }
  bool input_unchanged() const {
    bool same = true;
    for_each_set(watch_any_,
                 [&](int prio) { same = same && received_blocks(prio) == noted_blocks_[prio]; });
    for_each_set(banded_, [&](int prio) {
      same = same && bands_[prio].contains(
                         state_.ingress_occupancy.value(SwitchState::occupancy_slot(port_, prio)));
    });
    return same && input_counts() == noted_counts_;
  }
  // Any thread (fcswitch's link watch, the lab's events): the link came back. The generators
  // hear it (fc::FeedbackGenerator::link_restored) at the next poll, on TX's thread.
  void link_restored() { restores_requested_.fetch_add(1, std::memory_order_release); }
  void counters(int priority, const fc::CounterSink& sink) const {
    if (generators_[priority]) generators_[priority]->counters(sink);
  }

 private:
  // Σ of counts that only grow, of what the generators with an empty band watch: links
  // restored; the charges to their slots and the releases.
  uint64_t input_counts() const {
    uint64_t counts = restores_requested_.load(std::memory_order_acquire);
    for_each_set(watch_any_, [&](int prio) {
      const int slot = SwitchState::occupancy_slot(port_, prio);
      counts += state_.ingress_occupancy.charged(slot) + state_.ingress_occupancy.released(slot);
    });
    return counts;
  }
  // CBFC's ABR of (port, priority), as the generators see it (IngressView::received_blocks).
  uint32_t received_blocks(int prio) const {
    return static_cast<uint32_t>(
        state_.received_blocks[SwitchState::occupancy_slot(port_, prio)].read());
  }

  int port_;
  SwitchState& state_;  // written: its feedback_bands, for port_
  std::array<std::unique_ptr<fc::FeedbackGenerator>, kNumPriorities> generators_;
  PriorityMask generating_ = 0;
  PriorityMask metered_ = 0;  // the priorities with a τ meter
  std::array<std::unique_ptr<fc::ResponseTimeMeter>, kNumPriorities> response_times_;
  std::array<uint64_t, kNumPriorities> paused_level_{};  // the generator's level at the last poll
  std::atomic<uint32_t> restores_requested_{0};
  uint32_t restores_seen_ = 0;
  // What note_input() read: the generators that watched any change and those with a quiet
  // band, and their bands; the sum of counts that only grow (equal sums: no change), and the
  // received blocks, which CBFC's resynchronisation sets (compared one by one).
  PriorityMask watch_any_ = 0;
  PriorityMask banded_ = 0;
  // Each generator's band when last noted, as published (FeedbackWakeBands starts empty too).
  std::array<fc::OccupancyBand, kNumPriorities> bands_{};
  uint64_t noted_counts_ = 0;
  std::array<uint32_t, kNumPriorities> noted_blocks_{};
};

}  // namespace fcswitch

#include "transport/dcqcn_reaction_point.h"

#include <algorithm>

namespace fcswitch::transport {

namespace {

// A period of 0 would make poll() loop forever (the config refuses it; an engine must still
// end): at least one tick.
uint64_t period_ticks(uint64_t ns, const TickRate& ticks) {
  return std::max<uint64_t>(1, ticks.from_ns(ns));
}

}  // namespace

DcqcnReactionPoint::DcqcnReactionPoint(const DcqcnParams& params, uint64_t line_rate_bps,
                                       const TickRate& ticks)
    : g_(params.g),
      alpha_period_ticks_(period_ticks(params.alpha_timer_ns, ticks)),
      increase_period_ticks_(period_ticks(params.increase_timer_ns, ticks)),
      byte_counter_bytes_(std::max<uint64_t>(1, params.byte_counter_bytes)),
      fast_recovery_steps_(params.fast_recovery_steps),
      additive_increase_bps_(params.additive_increase_bps),
      hyper_increase_bps_(params.hyper_increase_bps),
      min_rate_bps_(std::min(params.min_rate_bps, line_rate_bps)),
      line_rate_bps_(line_rate_bps),
      rate_bps_(line_rate_bps),
      target_rate_bps_(line_rate_bps),
      alpha_(params.initial_alpha) {}

void DcqcnReactionPoint::on_cnp(uint64_t now_ticks) {
  poll(now_ticks);
  target_rate_bps_ = rate_bps_;
  // ⌊R_C·(1 − α/2)⌋: rates stay far below 2^53, where a double holds every integer.
  const auto cut = static_cast<uint64_t>(static_cast<double>(rate_bps_) * (1.0 - alpha_ / 2));
  rate_bps_ = std::max(min_rate_bps_, cut);
  alpha_ = (1.0 - g_) * alpha_ + g_;
  ++cnps_;
  timer_stage_ = 0;
  byte_stage_ = 0;
  bytes_since_event_ = 0;
  alpha_due_ticks_ = now_ticks + alpha_period_ticks_;
  increase_due_ticks_ = now_ticks + increase_period_ticks_;
  counting_bytes_ = true;
  // A cut that left R_C at line rate (α = 0, or a floor at line rate) has nothing to recover.
  stop_increase_if_at_line_rate();
}

void DcqcnReactionPoint::count_byte_events() {
  while (counting_bytes_ && bytes_since_event_ >= byte_counter_bytes_) {
    bytes_since_event_ -= byte_counter_bytes_;
    increase();
    ++byte_stage_;
    stop_increase_if_at_line_rate();
  }
}

void DcqcnReactionPoint::run_timers(uint64_t now_ticks) {
  // Deadlines advance by whole periods from the CNP, so a late poll does not shift them.
  while (next_event_ticks() <= now_ticks) {
    if (alpha_due_ticks_ <= increase_due_ticks_) {
      alpha_ *= 1.0 - g_;
      alpha_due_ticks_ += alpha_period_ticks_;
    } else {
      increase();
      ++timer_stage_;
      increase_due_ticks_ += increase_period_ticks_;
      stop_increase_if_at_line_rate();
    }
  }
}

void DcqcnReactionPoint::increase() {
  ++increase_events_;
  const uint32_t most = std::max(timer_stage_, byte_stage_);
  const uint32_t least = std::min(timer_stage_, byte_stage_);
  if (most >= fast_recovery_steps_) {
    // Additive, or hyper once both stages are past fast recovery: the i-th hyper step adds
    // i·R_HAI.
    const uint64_t step_bps = least < fast_recovery_steps_
                                  ? additive_increase_bps_
                                  : (least - fast_recovery_steps_ + 1) * hyper_increase_bps_;
    target_rate_bps_ = std::min(line_rate_bps_, target_rate_bps_ + step_bps);
  }
  // (R_T + R_C)/2 rounded up; R_C ≤ R_T, so the sum does not overflow below 2^63 bit/s.
  rate_bps_ = rate_bps_ + (target_rate_bps_ - rate_bps_ + 1) / 2;
}

void DcqcnReactionPoint::stop_increase_if_at_line_rate() {
  if (rate_bps_ < line_rate_bps_) return;
  increase_due_ticks_ = kNeverTicks;
  counting_bytes_ = false;
  bytes_since_event_ = 0;
}

}  // namespace fcswitch::transport

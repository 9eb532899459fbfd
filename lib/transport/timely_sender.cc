#include "transport/timely_sender.h"

#include <algorithm>

namespace fcswitch::transport {

namespace {

// ns as ticks, exactly (up to the double's rounding): the ratios use it.
double exact_ticks(uint64_t ns, const TickRate& ticks) {
  return static_cast<double>(ns) * static_cast<double>(ticks.hz) / kNsPerSecond;
}

// Through int64: x86-64 converts a signed 64-bit integer to and from a double in one
// instruction, an unsigned one in a branchy sequence (TimelyPerFrame in transport_cost_bench
// counts ~15 instructions fewer per sample). Rates and RTTs stay far below 2^63.
double as_double(uint64_t value) {
  return static_cast<double>(static_cast<int64_t>(value));
}
uint64_t rounded(double value) {
  return static_cast<uint64_t>(static_cast<int64_t>(value + 0.5));
}

// ⌊ns·hz / 10⁹⌋: an RTT of whole ticks exceeds ns iff it exceeds this.
uint64_t floor_ticks(uint64_t ns, const TickRate& ticks) {
  return static_cast<uint64_t>(static_cast<__uint128_t>(ns) * ticks.hz / kNsPerSecond);
}

}  // namespace

TimelySender::TimelySender(const TimelyParams& params, uint64_t line_rate_bps,
                           const TickRate& ticks)
    : alpha_(params.ewma_alpha),
      beta_(params.beta),
      additive_increase_bps_(params.additive_increase_bps),
      t_low_ticks_(ticks.from_ns(params.t_low_ns)),
      t_high_ticks_(floor_ticks(params.t_high_ns, ticks)),
      t_high_exact_ticks_(exact_ticks(params.t_high_ns, ticks)),
      // A minRTT of 0 would make every gradient infinite (the config refuses it; an engine must
      // still compute): at least one tick.
      min_rtt_ticks_(std::max(1.0, exact_ticks(params.min_rtt_ns, ticks))),
      // N = 0 would make the hyperactive step 0·δ: at least 1, which is plain δ.
      hai_threshold_(std::max<uint32_t>(1, params.hai_threshold)),
      min_rate_bps_(std::min(params.min_rate_bps, line_rate_bps)),
      line_rate_bps_(line_rate_bps),
      scale_by_sample_interval_(params.scale_by_sample_interval),
      tick_hz_(static_cast<double>(ticks.hz)),
      rate_bps_(line_rate_bps) {}

void TimelySender::on_rtt(uint64_t now_ticks, uint64_t rtt_ticks) {
  ++samples_;
  if (samples_ == 1) {
    prev_rtt_ticks_ = rtt_ticks;
    prev_sample_ticks_ = now_ticks;
    last_step_ = TimelyStep::kFirstSample;
    return;
  }
  // A difference of whole ticks, exact in a double below 2^53 ticks (~35 days at 3 GHz).
  const double new_rtt_diff_ticks = as_double(rtt_ticks - prev_rtt_ticks_);
  prev_rtt_ticks_ = rtt_ticks;
  rtt_diff_ticks_ = (1.0 - alpha_) * rtt_diff_ticks_ + alpha_ * new_rtt_diff_ticks;
  gradient_ = rtt_diff_ticks_ / min_rtt_ticks_;
  negative_gradient_run_ = gradient_ <= 0 ? negative_gradient_run_ + 1 : 0;
  const double weight = step_weight(now_ticks);
  prev_sample_ticks_ = now_ticks;

  if (rtt_ticks < t_low_ticks_) {
    increase(additive_increase_bps_, weight);
    last_step_ = TimelyStep::kBelowTLow;
  } else if (rtt_ticks > t_high_ticks_) {
    decrease(1.0 - t_high_exact_ticks_ / as_double(rtt_ticks), weight);
    last_step_ = TimelyStep::kAboveTHigh;
  } else if (gradient_ <= 0) {
    const bool hyper = negative_gradient_run_ >= hai_threshold_;
    increase(hyper ? hai_threshold_ * additive_increase_bps_ : additive_increase_bps_, weight);
    last_step_ = hyper ? TimelyStep::kHyperActive : TimelyStep::kAdditive;
  } else {
    decrease(gradient_, weight);
    last_step_ = TimelyStep::kGradientDecrease;
  }
}

double TimelySender::step_weight(uint64_t now_ticks) const {
  if (!scale_by_sample_interval_) return 1.0;
  // A clock that went backwards counts as no time at all.
  const uint64_t since_ticks = now_ticks > prev_sample_ticks_ ? now_ticks - prev_sample_ticks_ : 0;
  return std::min(1.0, as_double(since_ticks) / min_rtt_ticks_);
}

void TimelySender::increase(uint64_t step_bps, double weight) {
  if (weight < 1.0) step_bps = rounded(as_double(step_bps) * weight);
  // rate ≤ line rate, so the room is never negative, and the sum never overflows.
  rate_bps_ = line_rate_bps_ - rate_bps_ <= step_bps ? line_rate_bps_ : rate_bps_ + step_bps;
}

void TimelySender::decrease(double cut, double weight) {
  const double factor = 1.0 - weight * beta_ * cut;
  // Rates stay far below 2^53, where a double holds every integer; a factor ≤ 0 (gradient ≥ 1/β)
  // asks for no rate at all, and gets the floor.
  const uint64_t rate_bps = factor > 0 ? rounded(as_double(rate_bps_) * factor) : 0;
  rate_bps_ = std::clamp(rate_bps, min_rate_bps_, line_rate_bps_);
}

}  // namespace fcswitch::transport

#pragma once
// TIMELY's rate computation for one flow (Mittal et al., SIGCOMM'15, Algorithm 1): the sender's
// rate from RTT samples alone, no switch feedback. Pure: time is an argument.
//
// Per sample, in Algorithm 1's order:
//   new_rtt_diff = new_rtt − prev_rtt;  prev_rtt = new_rtt
//   rtt_diff     = (1 − α)·rtt_diff + α·new_rtt_diff
//   gradient     = rtt_diff / minRTT
//   new_rtt < T_low:   rate += δ
//   new_rtt > T_high:  rate ← rate·(1 − β·(1 − T_high/new_rtt))
//   gradient ≤ 0:      rate += δ, or N·δ once the last N samples (this one included) all had
//                      gradient ≤ 0 (hyperactive increase, HAI)
//   otherwise:         rate ← rate·(1 − β·gradient)
// and the rate is clamped to [min_rate, line rate]; a gradient ≥ 1/β (1.25 with β = 0.8) asks
// for a rate ≤ 0 and gets min_rate. The HAI run counts every sample's gradient, whichever branch
// acts on it (Algorithm 1 takes N = 5 once the gradient has been negative for five completion
// events); the authors' code snippet counts samples whose raw new_rtt_diff < 0 instead.
//
// The first sample has no previous RTT to differ from: it sets prev_rtt and nothing else (the
// rate, rtt_diff and the HAI run stay as they were). Taking prev_rtt = 0 would make the first
// difference the whole RTT and cut the rate for a congestion that was never seen; the authors'
// snippet sets prev_rtt to the first sample too, but then runs the whole update on a difference
// of 0. Since a flow starts at line rate, all this skips is a T_high cut one sample early.
//
// Granularity. In the paper an RTT sample is a completion event, one per segment of 16–64 KB
// that the NIC sends at near line rate, and the rate is enforced by the gaps between segments;
// the RTT is the completion time less the send time less the segment's serialisation at line
// rate (TIMELY §3), which the caller subtracts. The lab calls on_rtt per ACK of one frame,
// finer by a segment's frame count (16–64 with 1 KB frames): each sample then moves the rate by
// a whole δ or β-step, and the difference of two successive samples spans one frame's time
// instead of one segment's, so the gradient reads smaller.
// TimelyParams::scale_by_sample_interval weights each step by the time since the previous
// sample over minRTT, as the authors' code does, to bound the update rate.
//
// TIMELY starts a new flow at C/(N + 1) with N flows already active at the sender (as Zhu et
// al., CoNEXT'16, describe it); here a flow starts at line rate, as a host's only flow does.
//
// Units. RTTs and thresholds are compared in ticks, in integers: T_low as ⌈T_low·hz⌉ (an RTT is
// below T_low iff its ticks are below that) and T_high as ⌊T_high·hz⌋. The ratios — gradient and
// T_high/new_rtt — are dimensionless and computed from ticks, so a tick rate under which the
// samples are whole ticks gives the same rates as any other. Rates are integers in bit/s; a
// multiplicative step rounds to the nearest bit/s (a floor would turn 8.95e9 computed as
// 8949999999.999999 into a value the equations do not give).

#include <cstdint>

#include "core/tick_rate.h"
#include "transport/timely_params.h"

namespace fcswitch::transport {

// Which branch of Algorithm 1 the latest sample took.
enum class TimelyStep : uint8_t {
  kNone,              // no sample yet
  kFirstSample,       // prev_rtt set, nothing else
  kBelowTLow,         // + δ
  kAboveTHigh,        // × (1 − β·(1 − T_high/new_rtt))
  kAdditive,          // gradient ≤ 0: + δ
  kHyperActive,       // gradient ≤ 0 for the last N samples: + N·δ
  kGradientDecrease,  // gradient > 0: × (1 − β·gradient)
};

class TimelySender {
 public:
  TimelySender(const TimelyParams& params, uint64_t line_rate_bps, const TickRate& ticks);

  // One RTT sample (a completion event: in the lab, one per ACK) at now_ticks; rtt in ticks.
  void on_rtt(uint64_t now_ticks, uint64_t rtt_ticks);

  uint64_t rate_bps() const { return rate_bps_; }  // what the flow's pacer sends at
  uint64_t line_rate_bps() const { return line_rate_bps_; }
  double rtt_diff_ns() const { return rtt_diff_ticks_ * kNsPerSecond / tick_hz_; }
  double gradient() const { return gradient_; }  // rtt_diff / minRTT
  uint64_t samples() const { return samples_; }
  // Samples in a row, up to the latest, whose gradient was ≤ 0 (the first sample has none).
  uint32_t negative_gradient_run() const { return negative_gradient_run_; }
  uint64_t prev_rtt_ticks() const { return prev_rtt_ticks_; }
  TimelyStep last_step() const { return last_step_; }

 private:
  // The step's weight: 1, or with scale_by_sample_interval min(1, since the last sample / minRTT).
  double step_weight(uint64_t now_ticks) const;
  void increase(uint64_t step_bps, double weight);
  void decrease(double cut, double weight);  // rate ← rate·(1 − weight·cut)

  // Profile.
  double alpha_;
  double beta_;
  uint64_t additive_increase_bps_;
  uint64_t t_low_ticks_;   // ⌈T_low⌉: below T_low iff rtt_ticks < this
  uint64_t t_high_ticks_;  // ⌊T_high⌋: above T_high iff rtt_ticks > this
  double t_high_exact_ticks_;
  double min_rtt_ticks_;
  uint32_t hai_threshold_;
  uint64_t min_rate_bps_;
  uint64_t line_rate_bps_;
  bool scale_by_sample_interval_;
  double tick_hz_;

  // State.
  uint64_t rate_bps_;
  uint64_t prev_rtt_ticks_ = 0;
  uint64_t prev_sample_ticks_ = 0;
  double rtt_diff_ticks_ = 0;
  double gradient_ = 0;
  uint64_t samples_ = 0;
  uint32_t negative_gradient_run_ = 0;
  TimelyStep last_step_ = TimelyStep::kNone;
};

}  // namespace fcswitch::transport

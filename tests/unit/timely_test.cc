// TIMELY's rate computation (Mittal et al., SIGCOMM'15, Algorithm 1) pinned to hand-computed
// numbers: each branch, the EWMA of the RTT differences, hyperactive increase after exactly N
// completions, the clamps, the first sample, the per-sample step scaling, and rates that do not
// depend on the tick rate. Defaults throughout unless a test says otherwise: α = 0.875 = 7/8,
// β = 0.8, δ = 10 Mb/s, T_low = 50 µs, T_high = 500 µs, minRTT = 20 µs, N = 5, line rate 10 Gb/s.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "transport/timely_sender.h"

namespace fcswitch::transport {
namespace {

constexpr uint64_t k10G = 10'000'000'000;
const TickRate kNs{kNsPerSecond};  // one tick per nanosecond: ticks read as ns

// A 10 Gb/s sender fed these RTTs (ns), one sample per nanosecond from t = 0 (the time matters
// only with scale_by_sample_interval).
TimelySender fed(const std::vector<uint64_t>& rtts_ns, const TimelyParams& params = {}) {
  TimelySender sender(params, k10G, kNs);
  uint64_t now_ns = 0;
  for (const uint64_t rtt_ns : rtts_ns) sender.on_rtt(now_ns++, rtt_ns);
  return sender;
}

TEST(TimelySender, StartsAtLineRateWithNoSample) {
  const TimelySender sender(TimelyParams{}, k10G, kNs);
  EXPECT_EQ(sender.rate_bps(), k10G);
  EXPECT_EQ(sender.samples(), 0u);
  EXPECT_EQ(sender.rtt_diff_ns(), 0.0);
  EXPECT_EQ(sender.negative_gradient_run(), 0u);
  EXPECT_EQ(sender.last_step(), TimelyStep::kNone);
}

// The first sample has nothing to differ from: 600 µs is above T_high, yet the rate stays. The
// second, equal, sample then cuts by T_high's factor: new_rtt_diff = 0, so rtt_diff and the
// gradient are 0, and 1 − 0.8·(1 − 500/600) = 13/15: 10e9·13/15 = 8666666666.67 → 8666666667.
TEST(TimelySender, FirstSampleOnlySetsPrevRtt) {
  TimelySender sender(TimelyParams{}, k10G, kNs);
  sender.on_rtt(1000, 600'000);
  EXPECT_EQ(sender.rate_bps(), k10G);
  EXPECT_EQ(sender.prev_rtt_ticks(), 600'000u);
  EXPECT_EQ(sender.rtt_diff_ns(), 0.0);
  EXPECT_EQ(sender.gradient(), 0.0);
  EXPECT_EQ(sender.negative_gradient_run(), 0u);
  EXPECT_EQ(sender.samples(), 1u);
  EXPECT_EQ(sender.last_step(), TimelyStep::kFirstSample);

  sender.on_rtt(2000, 600'000);
  EXPECT_EQ(sender.last_step(), TimelyStep::kAboveTHigh);
  EXPECT_EQ(sender.rate_bps(), 8'666'666'667u);
  EXPECT_EQ(sender.rtt_diff_ns(), 0.0);
  EXPECT_EQ(sender.samples(), 2u);
  EXPECT_EQ(sender.negative_gradient_run(), 1u);  // a gradient of 0 counts as ≤ 0
}

// Above T_high the cut is β·(1 − T_high/new_rtt), whatever the gradient:
//   1000 µs: 1 − 0.8·(1 − 1/2) = 0.6   → 6e9
//   2000 µs: 1 − 0.8·(1 − 1/4) = 0.4   → 2.4e9
//    600 µs: 1 − 0.8·(1 − 5/6) = 13/15 → 2.08e9, though the RTT fell (gradient < 0)
TEST(TimelySender, AboveTHighCutsByHowFarTheRttExceedsIt) {
  TimelySender sender = fed({500'000, 1'000'000});
  EXPECT_EQ(sender.last_step(), TimelyStep::kAboveTHigh);
  EXPECT_EQ(sender.rate_bps(), 6'000'000'000u);
  sender.on_rtt(2, 2'000'000);
  EXPECT_EQ(sender.rate_bps(), 2'400'000'000u);
  sender.on_rtt(3, 600'000);
  EXPECT_LT(sender.gradient(), 0);
  EXPECT_EQ(sender.last_step(), TimelyStep::kAboveTHigh);
  EXPECT_EQ(sender.rate_bps(), 2'080'000'000u);
}

// Below T_low the rate grows by δ, whatever the gradient: the 1000 µs sample cuts to 6e9 first
// (a flow at line rate has no room to grow).
TEST(TimelySender, BelowTLowAddsDelta) {
  TimelySender sender = fed({500'000, 1'000'000});
  ASSERT_EQ(sender.rate_bps(), 6'000'000'000u);
  sender.on_rtt(2, 40'000);
  EXPECT_EQ(sender.last_step(), TimelyStep::kBelowTLow);
  EXPECT_EQ(sender.rate_bps(), 6'010'000'000u);
  sender.on_rtt(3, 40'000);
  EXPECT_EQ(sender.rate_bps(), 6'020'000'000u);
  // Five samples in a row with gradient ≤ 0, yet below T_low the step stays δ: HAI is the
  // gradient branch's alone.
  for (int i = 0; i < 3; ++i) sender.on_rtt(4 + i, 40'000);
  EXPECT_EQ(sender.negative_gradient_run(), 5u);
  EXPECT_EQ(sender.last_step(), TimelyStep::kBelowTLow);
  EXPECT_EQ(sender.rate_bps(), 6'050'000'000u);
}

// T_low and T_high themselves belong to the gradient band (strict < and > in Algorithm 1).
TEST(TimelySender, ThresholdEdgesFallToTheGradient) {
  // 40 → 50 µs: rtt_diff = 7/8·10 000 = 8750 ns, gradient 0.4375, ×(1 − 0.35) → 6.5e9.
  const TimelySender at_t_low = fed({40'000, 50'000});
  EXPECT_EQ(at_t_low.last_step(), TimelyStep::kGradientDecrease);
  EXPECT_EQ(at_t_low.rate_bps(), 6'500'000'000u);
  // One nanosecond less is below T_low: + δ, capped at line rate.
  const TimelySender below_t_low = fed({40'000, 49'999});
  EXPECT_EQ(below_t_low.last_step(), TimelyStep::kBelowTLow);
  EXPECT_EQ(below_t_low.rate_bps(), k10G);
  // 1000 µs cuts to 6e9; then exactly T_high with a falling RTT is the gradient's: + δ.
  const TimelySender at_t_high = fed({100'000, 1'000'000, 500'000});
  EXPECT_EQ(at_t_high.last_step(), TimelyStep::kAdditive);
  EXPECT_EQ(at_t_high.rate_bps(), 6'010'000'000u);
  // One nanosecond more is above T_high: 6e9·(1 − 0.8/500001) = 5999990400.02.
  const TimelySender above_t_high = fed({100'000, 1'000'000, 500'001});
  EXPECT_EQ(above_t_high.last_step(), TimelyStep::kAboveTHigh);
  EXPECT_EQ(above_t_high.rate_bps(), 5'999'990'400u);
}

// In the band the EWMA of the differences decides, not the latest difference alone
// (rtt_diff ← rtt_diff/8 + 7/8·new_rtt_diff, gradient = rtt_diff / 20 000 ns):
//   100 µs  first
//   103 µs  new  3000: rtt_diff = 2625,         g = 0.13125,      ×(1 − 0.105)    → 8.95e9
//   109 µs  new  6000: rtt_diff = 5578.125,     g = 0.27890625,   ×0.776875       → 6953031250
//   108.5   new  −500: rtt_diff = 259.765625,   g = 0.0129882..., ×0.989609375    → 6880784909.67
//           — the RTT fell, but the filter still remembers the rise: a cut
//   108.5   new     0: rtt_diff = 32.470703125, g = 0.0016235..., ×0.9987011719   → 6871847952.71
TEST(TimelySender, GradientDecreaseFollowsTheEwma) {
  struct Expected {
    uint64_t rtt_ns;
    double rtt_diff_ns;
    uint64_t rate_bps;
  };
  const std::vector<Expected> steps = {{103'000, 2625.0, 8'950'000'000},
                                       {109'000, 5578.125, 6'953'031'250},
                                       {108'500, 259.765625, 6'880'784'910},
                                       {108'500, 32.470703125, 6'871'847'953}};
  TimelySender sender = fed({100'000});
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE(testing::Message() << "sample " << i + 2);
    sender.on_rtt(1 + i, steps[i].rtt_ns);
    EXPECT_EQ(sender.rtt_diff_ns(), steps[i].rtt_diff_ns);
    EXPECT_EQ(sender.gradient(), steps[i].rtt_diff_ns / 20'000);
    EXPECT_EQ(sender.last_step(), TimelyStep::kGradientDecrease);
    EXPECT_EQ(sender.negative_gradient_run(), 0u);
    EXPECT_EQ(sender.rate_bps(), steps[i].rate_bps);
  }
}

// The other way round: after 103 and 109 µs, 108 µs turns the EWMA negative
// (5578.125/8 − 875 = −177.734375): + δ, and a run of one.
TEST(TimelySender, NegativeGradientAddsDelta) {
  TimelySender sender = fed({100'000, 103'000, 109'000});
  ASSERT_EQ(sender.rate_bps(), 6'953'031'250u);
  sender.on_rtt(3, 108'000);
  EXPECT_EQ(sender.rtt_diff_ns(), -177.734375);
  EXPECT_EQ(sender.last_step(), TimelyStep::kAdditive);
  EXPECT_EQ(sender.negative_gradient_run(), 1u);
  EXPECT_EQ(sender.rate_bps(), 6'963'031'250u);
}

// 1000 µs cuts to 6e9 (gradient > 0: the run is 0). Then 400 µs again and again: the first
// difference is −600 µs and the EWMA stays negative, shrinking by 8 each time. Samples 1–4 of
// the run add δ; the 5th (N = 5) and after add 5δ. A rise (410 µs: rtt_diff = 8749.80,
// g = 0.43749, ×0.65000814 → 4023550362.05) ends the run, and the next fall adds δ again.
TEST(TimelySender, HyperActiveIncreaseAfterExactlyNNegativeGradients) {
  TimelySender sender = fed({100'000, 1'000'000});
  ASSERT_EQ(sender.rate_bps(), 6'000'000'000u);
  ASSERT_EQ(sender.negative_gradient_run(), 0u);
  const std::vector<uint64_t> expected_bps = {6'010'000'000, 6'020'000'000, 6'030'000'000,
                                              6'040'000'000, 6'090'000'000, 6'140'000'000,
                                              6'190'000'000};
  for (size_t i = 0; i < expected_bps.size(); ++i) {
    sender.on_rtt(2 + i, 400'000);
    EXPECT_EQ(sender.negative_gradient_run(), i + 1) << "sample " << i;
    EXPECT_EQ(sender.last_step(), i + 1 < 5 ? TimelyStep::kAdditive : TimelyStep::kHyperActive)
        << "sample " << i;
    EXPECT_EQ(sender.rate_bps(), expected_bps[i]) << "sample " << i;
  }
  sender.on_rtt(10, 410'000);
  EXPECT_EQ(sender.last_step(), TimelyStep::kGradientDecrease);
  EXPECT_EQ(sender.negative_gradient_run(), 0u);
  EXPECT_EQ(sender.rate_bps(), 4'023'550'362u);
  sender.on_rtt(11, 400'000);
  EXPECT_EQ(sender.last_step(), TimelyStep::kAdditive);
  EXPECT_EQ(sender.rate_bps(), 4'033'550'362u);
}

// N is a parameter: with N = 2 the second negative gradient is already hyperactive (+2δ).
TEST(TimelySender, HaiThresholdIsAParameter) {
  TimelyParams params;
  params.hai_threshold = 2;
  TimelySender sender = fed({100'000, 1'000'000, 400'000}, params);
  EXPECT_EQ(sender.rate_bps(), 6'010'000'000u);
  sender.on_rtt(3, 400'000);
  EXPECT_EQ(sender.last_step(), TimelyStep::kHyperActive);
  EXPECT_EQ(sender.rate_bps(), 6'030'000'000u);
}

TEST(TimelySender, ClampsToLineRateAndMinRate) {
  {
    // A 100 Mb/s line: 1000 µs cuts to 60 Mb/s, then + δ per falling sample: 70, 80, 90, 100;
    // the 5th is hyperactive, + 5δ, and stays at line rate.
    TimelySender sender(TimelyParams{}, 100'000'000, kNs);
    sender.on_rtt(0, 100'000);
    sender.on_rtt(1, 1'000'000);
    ASSERT_EQ(sender.rate_bps(), 60'000'000u);
    for (const uint64_t expected_bps : {70'000'000, 80'000'000, 90'000'000, 100'000'000}) {
      sender.on_rtt(2, 400'000);
      EXPECT_EQ(sender.rate_bps(), expected_bps);
    }
    sender.on_rtt(3, 400'000);
    EXPECT_EQ(sender.last_step(), TimelyStep::kHyperActive);
    EXPECT_EQ(sender.rate_bps(), 100'000'000u);
  }
  {
    // 100 → 140 µs: rtt_diff = 35 000 ns, gradient 1.75 ≥ 1/β: 1 − 0.8·1.75 = −0.4 asks for a
    // negative rate; the floor holds it at min_rate.
    const TimelySender sender = fed({100'000, 140'000});
    EXPECT_EQ(sender.gradient(), 1.75);
    EXPECT_EQ(sender.rate_bps(), 10'000'000u);
  }
  {
    // T_high cuts of at most ×0.2 each (β = 0.8, RTT → ∞) reach the floor and stay there.
    TimelyParams params;
    params.min_rate_bps = 500'000'000;
    const TimelySender sender = fed({100'000, 1'000'000'000, 1'000'000'000, 1'000'000'000}, params);
    EXPECT_EQ(sender.rate_bps(), 500'000'000u);
  }
}

// With scale_by_sample_interval each step is weighted by min(1, Δt / minRTT), Δt the time since
// the previous sample (20 µs = minRTT):
//   t =  0     100 µs  first
//   t =  5 µs 1000 µs  T_high, weight 1/4: 1 − 1/4·0.8·(1/2) = 0.9   → 9e9
//   t = 10 µs   40 µs  T_low,  weight 1/4: + δ/4                     → 9.0025e9
//   t = 50 µs   40 µs  T_low,  weight min(1, 40/20) = 1: + δ          → 9.0125e9
//   t = 55 µs  100 µs  g = 40913.0859375/20000, weight 1/4: ×0.5908691 → 5325208130.36
TEST(TimelySender, ScaledStepsBoundTheUpdateRate) {
  TimelyParams params;
  params.scale_by_sample_interval = true;
  TimelySender sender(params, k10G, kNs);
  sender.on_rtt(0, 100'000);
  sender.on_rtt(5'000, 1'000'000);
  EXPECT_EQ(sender.rate_bps(), 9'000'000'000u);
  sender.on_rtt(10'000, 40'000);
  EXPECT_EQ(sender.rate_bps(), 9'002'500'000u);
  sender.on_rtt(50'000, 40'000);
  EXPECT_EQ(sender.rate_bps(), 9'012'500'000u);
  sender.on_rtt(55'000, 100'000);
  EXPECT_EQ(sender.rtt_diff_ns(), 40913.0859375);
  EXPECT_EQ(sender.rate_bps(), 5'325'208'130u);

  // Unscaled, the same RTTs take whole steps: 1000 µs → 6e9, then + δ.
  EXPECT_EQ(fed({100'000, 1'000'000, 40'000}).rate_bps(), 6'010'000'000u);
}

// The same samples in ns, converted to ticks at 1, 2.5 and 3 GHz (whole ticks each), give the
// same rate, gradient and rtt_diff after every one, through every branch: thresholds, minRTT and
// the scaling are converted, not read as ticks.
struct Sample {
  uint64_t now_ns;
  uint64_t rtt_ns;
};

std::vector<TimelySender> run_at(const TickRate& ticks, const std::vector<Sample>& samples,
                                 bool scaled) {
  TimelyParams params;
  params.scale_by_sample_interval = scaled;
  TimelySender sender(params, k10G, ticks);
  std::vector<TimelySender> after;
  for (const Sample& s : samples) {
    sender.on_rtt(s.now_ns * ticks.hz / kNsPerSecond, s.rtt_ns * ticks.hz / kNsPerSecond);
    after.push_back(sender);
  }
  return after;
}

TEST(TimelySender, TickRateDoesNotChangeTheRates) {
  const std::vector<Sample> samples = {{0, 100'000},      {4'000, 1'000'000}, {8'000, 400'000},
                                       {12'000, 400'000}, {30'000, 400'000},  {60'000, 400'000},
                                       {64'000, 400'000}, {90'000, 410'000},  {92'000, 40'000},
                                       {94'000, 50'000},  {96'000, 49'998},   {200'000, 500'000},
                                       {210'000, 500'002}};
  for (const bool scaled : {false, true}) {
    const std::vector<TimelySender> ns = run_at(kNs, samples, scaled);
    for (const uint64_t hz : {2'500'000'000ull, 3'000'000'000ull}) {
      const std::vector<TimelySender> other = run_at(TickRate{hz}, samples, scaled);
      for (size_t i = 0; i < samples.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "hz " << hz << " scaled " << scaled << " sample " << i);
        EXPECT_EQ(other[i].last_step(), ns[i].last_step());
        EXPECT_EQ(other[i].rate_bps(), ns[i].rate_bps());
        EXPECT_DOUBLE_EQ(other[i].gradient(), ns[i].gradient());
        EXPECT_DOUBLE_EQ(other[i].rtt_diff_ns(), ns[i].rtt_diff_ns());
      }
    }
    // The sequence went through every branch.
    std::vector<bool> seen(7, false);
    for (const TimelySender& s : ns) seen[static_cast<size_t>(s.last_step())] = true;
    for (size_t step = 1; step < seen.size(); ++step) EXPECT_TRUE(seen[step]) << "step " << step;
  }
}

}  // namespace
}  // namespace fcswitch::transport

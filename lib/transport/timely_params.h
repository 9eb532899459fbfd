#pragma once
// TIMELY's parameters (Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter",
// SIGCOMM'15, Algorithm 1), as the lab's hosts and fchost are handed them. The TIMELY paper is not
// among ../shared/papers to check against. The defaults are the values recommended in it for
// 10 Gb/s as Zhu et al. list them when they validate their TIMELY model ("ECN or Delay: Lessons
// Learnt from Analysis of DCQCN and TIMELY", CoNEXT'16, §4, the model validation's footnote:
// β = 0.8, α = 0.875, T_low = 50 µs, T_high = 500 µs, D_minRTT = 20 µs), which are also the HPCC
// authors' ns-3 defaults; that model's script cites TIMELY §4.4 for T_low and T_high, and marks
// α "unsure". The TIMELY authors' published code snippet recommends other values for per-packet
// pacing (α = 0.02, T_low = 0, T_high = 1 ms): the fields below say where.

#include <cstdint>

namespace fcswitch::transport {

struct TimelyParams {
  // α: the EWMA's weight on the newest difference, in Algorithm 1's form
  //   rtt_diff ← (1 − α)·rtt_diff + α·new_rtt_diff.
  // 0.875 (see above) leaves the filter little memory; the authors' code snippet recommends 0.02.
  double ewma_alpha = 0.875;
  // β: multiplicative decrease factor, in rate·(1 − β·gradient) and
  // rate·(1 − β·(1 − T_high/new_rtt)).
  double beta = 0.8;
  // δ: additive increment per completion (10 Mb/s "for 10 Gb/s line rate", the authors' snippet).
  uint64_t additive_increase_bps = 10'000'000;
  // T_low: below it the rate grows by δ whatever the gradient (TIMELY §4.4). The authors' snippet
  // puts it at 0 under per-packet pacing, 50 µs under 64 KB segments.
  uint64_t t_low_ns = 50'000;
  // T_high: above it the rate is cut by how far the RTT exceeds it (TIMELY §4.4).
  uint64_t t_high_ns = 500'000;
  // minRTT: normalises the gradient (gradient = rtt_diff / minRTT), the fabric's minimum RTT.
  uint64_t min_rtt_ns = 20'000;
  // N: hyperactive increase (HAI) adds N·δ once the last N completions, this one included, had a
  // gradient ≤ 0; before that, δ. At least 1 (1: no HAI).
  uint32_t hai_threshold = 5;
  // Floor of the rate: ours, so that a flow never stops (as DcqcnParams::min_rate_bps).
  uint64_t min_rate_bps = 10'000'000;
  // false: every sample moves the rate by a full step, Algorithm 1 as written. true: each step is
  // scaled by f = min(1, (time since the previous sample) / minRTT), as the authors' code snippet
  // does with its delta_factor: samples closer than minRTT apart then move the rate no faster
  // than one full step per minRTT (TIMELY §5 bounds the update rate so; Zhu et al.'s model
  // writes the update interval as max(Seg/R, minRTT)). For callers that sample once per ACK of
  // one frame, far finer than the paper's 16–64 KB completions.
  bool scale_by_sample_interval = false;
};

}  // namespace fcswitch::transport

#pragma once
// DCQCN's parameters (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
// SIGCOMM'15), as the lab's hosts and fchost are handed them. g, N and K are those of GFC
// Fig. 20 (g = 1/256, N = 50 µs, K = 55 µs; it starts α at 0.5); T, B, F and R_AI are the
// defaults issue 18 gives for DCQCN's, which is not among ../shared/papers to check them
// against; R_HAI's origin is at its field.

#include <cstdint>

namespace fcswitch::transport {

struct DcqcnParams {
  // g: α's gain (DCTCP's g) in α ← (1 − g)·α + g on a CNP and α ← (1 − g)·α each K without one.
  double g = 1.0 / 256;
  // α when the flow starts: 1 makes the first cut a halving; GFC Fig. 20 and the authors'
  // ns-3 (bobzhuyb/ns3-rdma) start at 0.5.
  double initial_alpha = 1.0;
  // K: α decays once per K without a CNP. K is a little longer than N: a flow that keeps being
  // marked gets a CNP every N and so never sees its α decay.
  uint64_t alpha_timer_ns = 55'000;
  // T: a rate-increase event per T after a decrease (DCQCN, the RP algorithm: the timer).
  uint64_t increase_timer_ns = 55'000;
  // B: a rate-increase event per B bytes sent after a decrease (DCQCN, the RP algorithm: the byte
  // counter).
  uint64_t byte_counter_bytes = 10'000'000;
  // F: increase events in fast recovery, and the stage count past which additive and hyper
  // increase start (QCN's "5 cycles of fast recovery").
  uint32_t fast_recovery_steps = 5;
  // R_AI: additive increase of the target rate per event.
  uint64_t additive_increase_bps = 40'000'000;
  // R_HAI: hyper increase step; the i-th hyper event adds i·R_HAI (dcqcn_reaction_point.h).
  // 10·R_AI, the ratio of the authors' ns-3 defaults (RateAI 5 Mb/s, RateHAI 50 Mb/s).
  uint64_t hyper_increase_bps = 400'000'000;
  // Floor of R_C: ours, so that a flow never stops (the authors' ns-3 has one too, MinRate).
  uint64_t min_rate_bps = 10'000'000;
  // N: the notification point sends at most one CNP per flow per N (DCQCN, the NP algorithm).
  uint64_t cnp_interval_ns = 50'000;
};

}  // namespace fcswitch::transport

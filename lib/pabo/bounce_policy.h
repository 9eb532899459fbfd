#pragma once
// FWD's bounce decision for one switch (PABO §II-C, §III): the utilisation u_q of the sub-queue
// a packet would join — the normal one if it was never bounced, the bounce one otherwise (the
// authors' code) — with u_q := 1 within `guard` packets of full, Eq. 4's probability on it, and
// a draw. Pure and deterministic: the draws come from a seeded generator, so a lab run repeats
// exactly.

#include <cstdint>
#include <random>

#include "pabo/bounce_probability.h"
#include "pabo/bounce_settings.h"

namespace fcswitch::pabo {

// What a sub-queue holds: what FWD charged minus what TX released.
struct SubqueueDepth {
  uint64_t packets = 0;
  uint64_t bytes = 0;
};

struct SubqueueCapacity {
  uint64_t packets = 0;
  uint64_t bytes = 0;  // 0: none
};

class BouncePolicy {
 public:
  BouncePolicy(const BounceSettings& settings, uint64_t seed);

  const SubqueueCapacity& capacity(bool bounce_subqueue) const {
    return bounce_subqueue ? bounce_capacity_ : normal_capacity_;
  }
  // u_q of a sub-queue holding `depth` when a `frame_bytes` packet arrives: the larger of
  // the packet and byte fill; 1 within the guard of full.
  double utilisation(SubqueueDepth depth, uint32_t frame_bytes, bool bounce_subqueue) const;
  // The packet does not fit: the sub-queue is at its capacity.
  bool full(SubqueueDepth depth, uint32_t frame_bytes, bool bounce_subqueue) const {
    const SubqueueCapacity& cap = capacity(bounce_subqueue);
    return depth.packets >= cap.packets || (cap.bytes && depth.bytes + frame_bytes > cap.bytes);
  }
  // Eq. 4, then a draw: true when the packet goes back. Never when bouncing is off.
  bool bounces(SubqueueDepth depth, uint32_t frame_bytes, uint32_t bounce_count);
  // A packet never bounced, at a normal sub-queue holding `depth`: true when it joins that
  // sub-queue without a draw — bounces() would say no without drawing (P = 0: u_q ≤ θ, not
  // within the guard of full) and full() would say no. Integer compares against thresholds
  // worked out once with utilisation()'s own arithmetic, so the answer is exactly theirs
  // (FWD asks it of every packet of a run on the sub-queue).
  bool passes(SubqueueDepth depth, uint32_t frame_bytes) const {
    const SubqueueCapacity& cap = normal_capacity_;
    if (depth.packets >= cap.packets || (cap.bytes && depth.bytes + frame_bytes > cap.bytes))
      return false;  // full
    if (!bounce_) return true;
    if (depth.packets >= quiet_below_packets_) return false;
    return !cap.bytes || (depth.bytes < quiet_below_bytes_ &&
                          depth.bytes + guard_packets_ * frame_bytes < cap.bytes);
  }

  bool enabled() const { return bounce_; }
  const BounceProbability& probability() const { return probability_; }

 private:
  BounceProbability probability_;
  bool bounce_;
  uint64_t guard_packets_;
  SubqueueCapacity normal_capacity_;
  SubqueueCapacity bounce_capacity_;
  // The normal sub-queue's depths below which P = 0 (passes): in packets, u ≤ θ and the guard
  // clear; in bytes, u ≤ θ (the byte guard depends on the frame).
  uint64_t quiet_below_packets_ = 0;
  uint64_t quiet_below_bytes_ = 0;
  std::mt19937_64 random_;
};

}  // namespace fcswitch::pabo

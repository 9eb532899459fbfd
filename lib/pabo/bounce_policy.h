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

  bool enabled() const { return bounce_; }
  const BounceProbability& probability() const { return probability_; }

 private:
  BounceProbability probability_;
  bool bounce_;
  uint64_t guard_packets_;
  SubqueueCapacity normal_capacity_;
  SubqueueCapacity bounce_capacity_;
  std::mt19937_64 random_;
};

}  // namespace fcswitch::pabo

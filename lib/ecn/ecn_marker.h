#pragma once
// FWD's marking decision for one switch: the profile of the egress queue a packet joins
// (ecn/marking_probability.h) on the queue's depth, then a draw. Pure and deterministic: the
// draws come from a seeded generator, and a draw is taken only where the probability is
// strictly between 0 and 1 (a step profile takes none), so a lab run repeats exactly.

#include <cstdint>
#include <random>

#include "ecn/marking_probability.h"

namespace fcswitch::ecn {

class EcnMarker {
 public:
  explicit EcnMarker(uint64_t seed) : random_(seed) {}

  // True when the packet is to be marked CE (whether it can be is the caller's business:
  // a Not-ECT packet is forwarded unmarked, RFC 3168 §5). Inline: a draw only where the
  // curve is neither 0 nor 1 (never for a step).
  bool marks(const MarkingProbability& profile, uint64_t queue_bytes) {
    const double p = profile(queue_bytes);
    if (p <= 0) return false;
    if (p >= 1) return true;
    return draw(p);
  }

 private:
  bool draw(double probability);  // 0 < probability < 1

  std::mt19937_64 random_;
};

}  // namespace fcswitch::ecn

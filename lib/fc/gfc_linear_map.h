#pragma once
// Time-based GFC's mapping (GFC §4.1, Fig. 4b; §5.2): on each credit update the sender takes
// the remaining buffer r = (FCCL − FCTBS) blocks × 64 bytes and sends at
//
//   R = C · min(1, r / (B_m − B_0))
//
// that is, line rate while the downstream queue q = B_m − r is at or below B_0, falling
// linearly to 0 as q reaches B_m. The rate holds until the next update, T later.
//
// Theorem 5.1 asks B_0 ≤ B_m − (√(τ/T) + 1)²·C·T. §5.4 prints the ratio upside down,
// (√(T/τ) + 1)²; the theorem's form is the one that gives §5.4's own figures (140.8/191.4/
// 271 KB at 10/40/100 Gb/s with T = 65535 bytes of time and InfiniBand's τ): NOTES.md.

#include <cstdint>
#include <string>

#include "fc/engine.h"

namespace fcswitch::fc {

// (√(τ/T) + 1)²·C·T in bytes, rounded up.
uint64_t gfc_time_bound_bytes(const LinkParams& link, uint64_t period_ns);

class GfcLinearMap {
 public:
  // `b0_bytes` 0: the largest the theorem allows. Requires B_0 < B_m.
  GfcLinearMap(const LinkParams& link, uint64_t period_ns, uint64_t b0_bytes);

  uint64_t buffer_bytes() const { return buffer_bytes_; }
  uint64_t b0_bytes() const { return b0_bytes_; }
  uint64_t period_ns() const { return period_ns_; }
  uint64_t bound_bytes() const { return bound_bytes_; }
  uint64_t rate_bps(uint64_t remaining_bytes) const;
  // The queue at which the sender's rate is `rate_bps`: q = B_m − (R/C)(B_m − B_0).
  uint64_t steady_queue_bytes(uint64_t rate_bps) const;

  bool within_theorem() const { return b0_bytes_ + bound_bytes_ <= buffer_bytes_; }
  std::string theorem_text() const;

 private:
  uint64_t line_rate_bps_;
  uint64_t buffer_bytes_;
  uint64_t period_ns_;
  uint64_t response_time_ns_;
  uint64_t bound_bytes_;
  uint64_t b0_bytes_;
};

}  // namespace fcswitch::fc

#pragma once
// Buffer-based GFC's multi-stage mapping (GFC §4.2, Fig. 6), derived from the link:
//
//   B_k = B_m − (B_m − B_1)/2^(k−1),  k = 1..N          (GFC Eq. 5 with B_m − B_0 = 2(B_m − B_1))
//   R_k = C/2^k, R_0 = C                               (GFC Eq. 4)
//   N   = the first k with B_k − B_(k−1) ≤ 8 bits      (GFC §4.2, "N")
//
// §5.4 prints R_k = C/k; Eq. 4, from which Eqs. 1–5 and the stage lengths are derived, says
// C/2^k, and that is what a stage must be for Eq. 1 (B_(k+1) − B_k ≥ R_(k−1)·τ) to hold:
// we follow Eq. 4. Stage 0 is [0, B_1): the paper drops [B_0, B_1) since it runs at C too.
//
// Theorem 4.1 through Eq. 5 asks B_1 ≤ B_m − 2Cτ; a table can be built for any B_1 < B_m so
// that an experiment can break the bound on purpose, and within_theorem() tells.

#include <array>
#include <cstdint>
#include <string>

#include "fc/engine.h"

namespace fcswitch::fc {

// Enough for any buffer below 2^40 bytes: D/2^(N−1) ≤ 1 byte needs N − 1 ≤ 40.
inline constexpr int kMaxGfcStages = 41;

// 2Cτ in bytes, rounded up: the least buffer above B_1 that Theorem 4.1 allows.
uint64_t gfc_two_c_tau_bytes(const LinkParams& link);

class GfcStageTable {
 public:
  // `b1_bytes` 0: the largest the theorem allows, B_m − 2Cτ. Requires 0 < B_1 < B_m.
  GfcStageTable(const LinkParams& link, uint64_t b1_bytes);

  uint64_t buffer_bytes() const { return buffer_bytes_; }
  uint64_t b1_bytes() const { return thresholds_[1]; }
  uint64_t two_c_tau_bytes() const { return two_c_tau_bytes_; }
  int stages() const { return stages_; }  // N
  // B_k for k in [1, N], rounded up to the byte (a stage is never entered early).
  uint64_t threshold_bytes(int k) const { return thresholds_[k]; }
  // R_k for k in [0, N]; a stage above N runs at R_N.
  uint64_t rate_bps(int k) const { return rates_[k > stages_ ? stages_ : k]; }
  // The stage an ingress queue of `occupancy_bytes` is in: 0 below B_1, N at or above B_N.
  int stage_of(uint64_t occupancy_bytes) const;
  // The occupancies stage_of() puts in stage k: [B_k, B_(k+1)), from 0 for stage 0 and
  // unbounded for stage N.
  OccupancyBand occupancy_band(int k) const {
    return {k == 0 ? 0 : thresholds_[k],
            k >= stages_ ? OccupancyBand::kUnboundedBytes : thresholds_[k + 1]};
  }

  // GFC §5.4: B_1 ≤ B_m − 2Cτ.
  bool within_theorem() const { return b1_bytes() + two_c_tau_bytes_ <= buffer_bytes_; }
  // "B_1 ≤ B_m − 2Cτ = 1000000 − 225000 = 775000 bytes" for messages and tables.
  std::string theorem_text() const;

 private:
  uint64_t buffer_bytes_;
  uint64_t response_time_ns_;
  uint64_t two_c_tau_bytes_;
  int stages_ = 1;
  std::array<uint64_t, kMaxGfcStages + 1> thresholds_{};  // [0] unused (0)
  std::array<uint64_t, kMaxGfcStages + 1> rates_{};
};

}  // namespace fcswitch::fc

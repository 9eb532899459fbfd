#pragma once
// Buffer-based GFC's multi-stage mapping (GFC §4.2, Fig. 6), derived from the link:
//
//   B_k = B_top − (B_top − B_1)/2^(k−1),  k = 1..N     (GFC Eq. 5 with B_m − B_0 = 2(B_m − B_1))
//   R_k = C/2^k, R_0 = C                               (GFC Eq. 4)
//   N   = the first k with B_k − B_(k−1) ≤ 8 bits      (GFC §4.2, "N")
//   B_top = B_m − (1 + c)·F                            (the room, LinkParams::room_bytes)
//
// The paper's proofs are fluid: its queue grows continuously, and its last stages lie within a
// byte of B_m. Ours takes whole frames (admission: occupancy + frame ≤ B_m), and TX has c frames
// committed past its gate (one commit and the one on the wire) that a new stage cannot hold
// back. So the stages are the paper's on B_top, a frame of the largest size F and c committed
// ones below B_m (§4.1 lets B_m ≤ B): the last stage can be reached by a full-size frame and
// the queue still holds what was committed when it was reached.
//
// §5.4 prints R_k = C/k; Eq. 4, from which Eqs. 1–5 and the stage lengths are derived, says
// C/2^k, and that is what a stage must be for Eq. 1 (B_(k+1) − B_k ≥ R_(k−1)·τ) to hold:
// we follow Eq. 4. Stage 0 is [0, B_1): the paper drops [B_0, B_1) since it runs at C too.
//
// Theorem 4.1 through Eq. 5 asks B_1 ≤ B_top − 2Cτ = B_m − 2Cτ − (1 + c)·F; a table can be built
// for any B_1 < B_m so that an experiment can break the bound on purpose, and within_theorem()
// tells.

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
  // `b1_bytes` 0: the largest the theorem allows, B_m − 2Cτ − room. Requires 0 < B_1 < B_m.
  GfcStageTable(const LinkParams& link, uint64_t b1_bytes);

  uint64_t buffer_bytes() const { return buffer_bytes_; }
  uint64_t b1_bytes() const { return thresholds_[1]; }
  uint64_t two_c_tau_bytes() const { return two_c_tau_bytes_; }
  // (1 + c)·F, kept free below B_m; B_top = B_m − room, the most any stage starts at.
  uint64_t room_bytes() const { return room_bytes_; }
  uint64_t top_bytes() const { return top_bytes_; }
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

  // GFC §5.4 on B_top: B_1 ≤ B_m − 2Cτ − room.
  bool within_theorem() const {
    return b1_bytes() + two_c_tau_bytes_ + room_bytes_ <= buffer_bytes_;
  }
  // "B_1 ≤ B_m − 2Cτ − (1+c)·F = 1000000 − 225000 − 3036 = 771964 bytes (…)" for messages and
  // tables.
  std::string theorem_text() const;

 private:
  uint64_t buffer_bytes_;
  uint64_t response_time_ns_;
  uint64_t two_c_tau_bytes_;
  uint64_t room_bytes_;
  uint64_t top_bytes_;
  uint32_t max_frame_bytes_;
  uint32_t committed_frames_;
  int stages_ = 1;
  std::array<uint64_t, kMaxGfcStages + 1> thresholds_{};  // [0] unused (0)
  std::array<uint64_t, kMaxGfcStages + 1> rates_{};
};

}  // namespace fcswitch::fc

#pragma once
// The probability that a switch marks an ECT packet CE as it joins an egress queue holding
// `queue_bytes` (DCQCN, Zhu et al., SIGCOMM'15, §3.1, the CP algorithm and its Fig. 5: RED's
// curve on the instantaneous queue):
//
//   p(q) = 0                                      q ≤ K_min
//        = P_max · (q − K_min) / (K_max − K_min)   K_min < q ≤ K_max
//        = 1                                      q > K_max
//
// K_min = K_max = K is a step: every ECT packet is marked when q > K (DCTCP, Alizadeh et al.,
// SIGCOMM'10, §3.1). Pure: no state, no clock. The profile is built once (the slope divided
// out); p(q) is inline, asked of every packet that joins a marking queue.

#include <cstdint>

namespace fcswitch::ecn {

class MarkingProbability {
 public:
  // K_min ≤ K_max, P_max ∈ (0, 1] (the config reader refuses the rest).
  MarkingProbability(uint64_t k_min_bytes, uint64_t k_max_bytes, double p_max);

  double operator()(uint64_t queue_bytes) const {
    if (queue_bytes <= k_min_bytes_) return 0;
    // Past K_max, and a step's (K_min = K_max) every q above K: the band is empty.
    if (queue_bytes > k_max_bytes_) return 1;
    return p_per_byte_ * static_cast<double>(queue_bytes - k_min_bytes_);
  }

  uint64_t k_min_bytes() const { return k_min_bytes_; }
  uint64_t k_max_bytes() const { return k_max_bytes_; }
  double p_max() const { return p_max_; }

 private:
  uint64_t k_min_bytes_;
  uint64_t k_max_bytes_;
  double p_max_;
  double p_per_byte_;  // P_max / (K_max − K_min); 0 for a step
};

}  // namespace fcswitch::ecn

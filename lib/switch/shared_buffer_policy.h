#pragma once
// Admission to the switch buffer. Two pools, as commodity lossless switches have:
//  - lossless priorities: each (ingress port, priority) may hold up to
//    `lossless_ingress_bytes` — the B_m of the GFC paper, the buffer whose occupancy PFC/GFC
//    watch. Flow control is what keeps it from filling; a packet that would overflow it is a
//    flow-control failure and is counted as such (DropReason::kLosslessOverflow).
//  - lossy priorities share `lossy_pool_bytes`, each egress queue limited by the dynamic
//    threshold Q < α·(B − ΣQ) (Choudhury & Hahne, ToN 1998), so one congested queue cannot
//    take the whole pool.

#include <cstdint>

#include "params/buffer_params.h"

namespace fcswitch {

enum class Admission : uint8_t { kAdmit, kLossyBufferFull, kLosslessOverflow };

class SharedBufferPolicy {
 public:
  explicit SharedBufferPolicy(const SharedBufferConfig& config) : config_(config) {}

  Admission admit_lossless(uint64_t ingress_occupancy_bytes, uint32_t frame_bytes) const {
    return ingress_occupancy_bytes + frame_bytes <= config_.lossless_ingress_bytes
               ? Admission::kAdmit
               : Admission::kLosslessOverflow;
  }

  Admission admit_lossy(uint64_t queue_bytes, uint64_t pool_used_bytes,
                        uint32_t frame_bytes) const {
    if (pool_used_bytes + frame_bytes > config_.lossy_pool_bytes)
      return Admission::kLossyBufferFull;
    const uint64_t free_bytes = config_.lossy_pool_bytes - pool_used_bytes;
    // Q + len ≤ α·free, in 1/1024 units.
    return (queue_bytes + frame_bytes) * 1024 <= free_bytes * config_.lossy_alpha_1024
               ? Admission::kAdmit
               : Admission::kLossyBufferFull;
  }

  const SharedBufferConfig& config() const { return config_; }

 private:
  SharedBufferConfig config_;
};

}  // namespace fcswitch

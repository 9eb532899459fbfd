#pragma once
// The switch buffer's sizes (switch/shared_buffer_policy.h says how they are used): the
// lossless ingress buffer B_m per (ingress port, lossless priority), and the lossy pool with
// its dynamic threshold α.

#include <cstdint>

namespace fcswitch {

struct SharedBufferConfig {
  uint64_t lossless_ingress_bytes = 1 << 20;
  uint64_t lossy_pool_bytes = 4 << 20;
  // α of the dynamic threshold in 1/1024 units (1024 = 1.0), integer on the hot path.
  uint32_t lossy_alpha_1024 = 1024;
};

}  // namespace fcswitch

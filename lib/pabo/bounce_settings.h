#pragma once
// What a switch's bounce decisions are made with ([pabo] in config/reference.toml).

#include <cstdint>

namespace fcswitch::pabo {

struct BounceSettings {
  // false: the queues are plain drop-tail queues of normal_capacity packets, never bouncing —
  // the paper's comparison without PABO (§V-A: "we double the capacities of normalQueue").
  bool bounce = true;
  double theta = 0.8;          // Eq. 4's threshold θ ∈ [0, 1): no bounce at or below it (§V-B)
  double lambda = 50;          // Eq. 1's decay constant λ ≥ 0 (§V-B: 50; 0: Eq. 4's limit)
  uint32_t guard_packets = 3;  // u_q := 1 within this many packets of full (the authors' code)
  // Sub-queue capacities; a byte capacity of 0 is none (the paper counts packets, §V-A: 500).
  uint32_t normal_capacity_packets = 500;
  uint32_t bounce_capacity_packets = 500;
  uint64_t normal_capacity_bytes = 0;
  uint64_t bounce_capacity_bytes = 0;
};

}  // namespace fcswitch::pabo

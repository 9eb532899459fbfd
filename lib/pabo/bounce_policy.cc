#include "pabo/bounce_policy.h"

#include <algorithm>

namespace fcswitch::pabo {

BouncePolicy::BouncePolicy(const BounceSettings& params, uint64_t seed)
    : probability_(params.theta, params.lambda),
      bounce_(params.bounce),
      guard_packets_(params.guard_packets),
      normal_capacity_{params.normal_capacity_packets, params.normal_capacity_bytes},
      bounce_capacity_{params.bounce_capacity_packets, params.bounce_capacity_bytes},
      random_(seed) {
  // The first depth at which `quiet` fails, for a `quiet` true up to some depth and false
  // from there on (u grows with the depth): a binary search over [0, limit].
  const auto first_loud = [](uint64_t limit, auto quiet) {
    uint64_t lo = 0, hi = limit;  // quiet(d) for d < lo; !quiet(hi) or hi = limit
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (quiet(mid)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
  const double theta = probability_.theta();
  const SubqueueCapacity& cap = normal_capacity_;
  // As utilisation() computes u: the guard first, then the fill.
  quiet_below_packets_ = first_loud(cap.packets, [&](uint64_t d) {
    return d + guard_packets_ < cap.packets &&
           static_cast<double>(d) / static_cast<double>(cap.packets) <= theta;
  });
  if (cap.bytes)
    quiet_below_bytes_ = first_loud(cap.bytes, [&](uint64_t d) {
      return static_cast<double>(d) / static_cast<double>(cap.bytes) <= theta;
    });
}

double BouncePolicy::utilisation(SubqueueDepth depth, uint32_t frame_bytes,
                                 bool bounce_subqueue) const {
  const SubqueueCapacity& cap = capacity(bounce_subqueue);
  // The guard: decisions taken in parallel (the authors' code, several input ports) must not
  // all see room for one more packet.
  if (depth.packets + guard_packets_ >= cap.packets) return 1;
  double u = static_cast<double>(depth.packets) / static_cast<double>(cap.packets);
  if (cap.bytes) {
    if (depth.bytes + guard_packets_ * frame_bytes >= cap.bytes) return 1;
    u = std::max(u, static_cast<double>(depth.bytes) / static_cast<double>(cap.bytes));
  }
  return u;
}

bool BouncePolicy::bounces(SubqueueDepth depth, uint32_t frame_bytes, uint32_t bounce_count) {
  if (!bounce_) return false;
  const double p = probability_(utilisation(depth, frame_bytes, bounce_count > 0), bounce_count);
  if (p <= 0) return false;
  if (p >= 1) return true;
  // 53 random bits: a uniform double in [0, 1).
  return static_cast<double>(random_() >> 11) * 0x1.0p-53 < p;
}

}  // namespace fcswitch::pabo

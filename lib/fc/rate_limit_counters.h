#pragma once
// The counters of a gate that enforces a rate with a rate limiter (both GFCs, GFC §5.3),
// declared once for every engine that reports them.

#include "fc/counter_descriptor.h"

namespace fcswitch::fc {

inline constexpr CounterDescriptor kRateLimitCounter =
    gauge("rate_bps", "fcswitch_gfc_rate_limit_bytes_per_second",
          "Current rate limit of this egress queue", CounterUnit::kBitsPerSecond);
inline constexpr CounterDescriptor kRateLimitMinCounter =
    gauge("rate_min_bps", "fcswitch_gfc_rate_limit_min_bytes_per_second",
          "Lowest rate limit this egress queue has run at", CounterUnit::kBitsPerSecond);

}  // namespace fcswitch::fc

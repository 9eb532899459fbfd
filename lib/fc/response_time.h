#pragma once
// τ, the worst-case time from a receiver's feedback decision to the change reaching its
// input (GFC §5.4, Eq. 6): τ ≤ 2·MTU/C + 2·t_w + t_r. With the paper's values (MTU 1500 B,
// t_w = 1 µs of wire, t_r = 3 µs of processing) that is 7.4/5.6/5.2 µs at 10/40/100 Gb/s.
// A software switch is slower (its NIC TX ring adds to t_r; the GFC testbed measured 90 µs):
// configure what you measured.

#include <cstdint>

#include "core/tick_rate.h"
#include "core/units.h"

namespace fcswitch::fc {

inline constexpr uint64_t kEq6MtuBytes = 1500;
inline constexpr uint64_t kEq6WireNs = 1000;
inline constexpr uint64_t kEq6ProcessingNs = 3000;

constexpr uint64_t eq6_response_time_ns(uint64_t rate_bps) {
  const uint64_t mtu_ns = (kEq6MtuBytes * kBitsPerByte * kNsPerSecond + rate_bps - 1) / rate_bps;
  return 2 * mtu_ns + 2 * kEq6WireNs + kEq6ProcessingNs;
}

static_assert(eq6_response_time_ns(10'000'000'000) == 7400);
static_assert(eq6_response_time_ns(40'000'000'000) == 5600);
static_assert(eq6_response_time_ns(100'000'000'000) == 5240);  // the paper rounds to 5.2 µs

}  // namespace fcswitch::fc

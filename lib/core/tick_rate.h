#pragma once
// Time in the datapath is counted in ticks of whatever clock drives it: the TSC on a switch,
// the virtual clock in the lab, plain numbers in a test. Engines are handed a TickRate once
// and convert physical times (ns, bit times at a link rate) to ticks with it, in integers.

#include <cstdint>

namespace fcswitch {

inline constexpr uint64_t kNeverTicks = UINT64_MAX;
inline constexpr uint64_t kNsPerSecond = 1'000'000'000;

struct TickRate {
  uint64_t hz = kNsPerSecond;

  // Rounded up: a timer set from these never fires early.
  uint64_t from_ns(uint64_t ns) const {
    return ceil_div(static_cast<__uint128_t>(ns) * hz, kNsPerSecond);
  }
  // Time to send `bits` at `rate_bps`, rounded up.
  uint64_t for_bits(uint64_t bits, uint64_t rate_bps) const {
    return ceil_div(static_cast<__uint128_t>(bits) * hz, rate_bps);
  }
  // Rounded down.
  uint64_t to_ns(uint64_t ticks) const {
    return static_cast<uint64_t>(static_cast<__uint128_t>(ticks) * kNsPerSecond / hz);
  }

 private:
  static uint64_t ceil_div(__uint128_t a, uint64_t b) {
    return static_cast<uint64_t>((a + b - 1) / b);
  }
};

}  // namespace fcswitch

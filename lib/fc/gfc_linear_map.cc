#include "fc/gfc_linear_map.h"

#include <cmath>

#include <fmt/format.h>

#include "core/units.h"

namespace fcswitch::fc {

uint64_t gfc_time_bound_bytes(const LinkParams& link, uint64_t period_ns) {
  // (√(τ/T) + 1)²·C·T = (√τ + √T)²·C: in ns, then bytes.
  const long double root = std::sqrt(static_cast<long double>(link.response_time_ns)) +
                           std::sqrt(static_cast<long double>(period_ns));
  const long double bytes = root * root * static_cast<long double>(link.rate_bps) /
                            (static_cast<long double>(kNsPerSecond) * kBitsPerByte);
  return static_cast<uint64_t>(std::ceil(bytes));
}

GfcLinearMap::GfcLinearMap(const LinkParams& link, uint64_t period_ns, uint64_t b0_bytes)
    : line_rate_bps_(link.rate_bps),
      buffer_bytes_(link.buffer_bytes),
      period_ns_(period_ns),
      response_time_ns_(link.response_time_ns),
      bound_bytes_(gfc_time_bound_bytes(link, period_ns)),
      b0_bytes_(b0_bytes ? b0_bytes
                         : (buffer_bytes_ > bound_bytes_ ? buffer_bytes_ - bound_bytes_ : 0)) {}

uint64_t GfcLinearMap::rate_bps(uint64_t remaining) const {
  const uint64_t span = buffer_bytes_ - b0_bytes_;  // B_m − B_0 > 0
  if (remaining >= span) return line_rate_bps_;
  return static_cast<uint64_t>(static_cast<__uint128_t>(line_rate_bps_) * remaining / span);
}

uint64_t GfcLinearMap::steady_queue_bytes(uint64_t rate_bps) const {
  const uint64_t span = buffer_bytes_ - b0_bytes_;
  return buffer_bytes_ -
         static_cast<uint64_t>(static_cast<__uint128_t>(span) * rate_bps / line_rate_bps_);
}

std::string GfcLinearMap::theorem_text() const {
  const uint64_t limit = buffer_bytes_ > bound_bytes_ ? buffer_bytes_ - bound_bytes_ : 0;
  return fmt::format(
      "B_0 ≤ B_m − (√(τ/T)+1)²·C·T = {} − {} = {} bytes (τ = {} ns, T = {} ns, C = {} Mb/s)",
      buffer_bytes_, bound_bytes_, limit, response_time_ns_, period_ns_,
      line_rate_bps_ / 1'000'000);
}

}  // namespace fcswitch::fc

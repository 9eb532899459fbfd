#include "shaping/rate_limiter.h"

namespace fcswitch::shaping {

static_assert(sizeof(RateLimiter) == 6 * sizeof(uint64_t), "a queue's schedule is six words");

void RateLimiter::schedule_after(const RateLimiterProfile& profile, uint64_t start_ticks,
                                 uint64_t start_remainder, uint64_t bits) {
  if (rate_bps_ == 0) {
    next_open_ticks_ = kNeverTicks;
    remainder_ = 0;
    return;
  }
  if (unlimited(profile)) {  // GFC §5.3: R_c = 0 when R_r = C
    next_open_ticks_ = start_ticks;
    remainder_ = 0;
    return;
  }
  // L · hz / R_r ticks after the start, exactly: bits < 2^20 and hz < 2^44 keep this in 64
  // bits, one divide; 128 bits, a call to libgcc (1.5 a packet-hop in the lab), make it safe
  // for any clock.
  const __uint128_t numerator = static_cast<__uint128_t>(bits) * profile.hz + start_remainder;
  if (const uint64_t low = static_cast<uint64_t>(numerator); numerator >> 64 == 0) {
    next_open_ticks_ = start_ticks + low / rate_bps_;
    remainder_ = low % rate_bps_;
    return;
  }
  next_open_ticks_ = start_ticks + static_cast<uint64_t>(numerator / rate_bps_);
  remainder_ = static_cast<uint64_t>(numerator % rate_bps_);
}

void RateLimiter::set_rate(const RateLimiterProfile& profile, uint64_t rate_bps) {
  if (rate_bps == rate_bps_) return;
  rate_bps_ = rate_bps;
  if (!sent_) {
    next_open_ticks_ = rate_bps ? 0 : kNeverTicks;
    remainder_ = 0;
    return;
  }
  schedule_after(profile, last_start_ticks_, 0, last_bits_);
}

void RateLimiter::on_send(const RateLimiterProfile& profile, uint64_t now, uint32_t frame_bytes) {
  // On schedule, or late by no more than the catch-up allowance: the exact schedule goes on.
  // Otherwise (first packet, idle, late) it restarts from now, less the allowance.
  const bool on_schedule =
      sent_ && (now <= next_open_ticks_ || now - next_open_ticks_ <= profile.catch_up_ticks);
  uint64_t start = next_open_ticks_;
  uint64_t start_remainder = remainder_;
  if (!on_schedule) {
    start = sent_ ? now - profile.catch_up_ticks : now;  // late by more than catch_up: no underflow
    start_remainder = 0;
  }
  sent_ = true;
  last_start_ticks_ = start;
  last_bits_ = profile.framing.wire_bits(frame_bytes);
  schedule_after(profile, start, start_remainder, last_bits_);
}

}  // namespace fcswitch::shaping

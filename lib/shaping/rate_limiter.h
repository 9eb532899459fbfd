#pragma once
// The per-queue rate limiter of GFC §5.3. After a packet whose wire time at line rate C is
// R_l, the queue may not send for R_c = (C − R_r)/R_r · R_l, R_r the assigned rate. Measured
// from the packet's start, the next one may start R_l + R_c = L/R_r later (L its wire bits):
// that is what we schedule, because software sees when a packet was handed to the NIC, not
// when its last bit left.
//
// Time is in ticks of the clock that drives the datapath (TSC, or the lab's virtual clock).
// Start times are kept as exact rationals — whole ticks plus a remainder in units of
// 1/R_r tick — so every gap is the exact one rounded down or up to the tick and the long-run
// rate is exact: after any number of packets the queue opens at ⌊Σ L · hz / R_r⌋.
//
// R_r ≥ C means no wait at all (R_c = 0): the port serialises its own packets. A limiter
// with no line rate (kNoLineRate) paces at any rate, as the lab's links need.
//
// When the queue was late (a poll came after the time it opened), the schedule is kept as
// long as the lateness is within `catch_up_ticks`, so that polling granularity does not lower
// the rate; beyond that the schedule restarts from now minus catch_up_ticks. That allows a
// burst of at most catch_up_ticks × R_r after idle. 0 (the lab, exact polling) means none.

#include <cstdint>

#include "core/tick_rate.h"
#include "shaping/wire_framing.h"

namespace fcswitch::shaping {

inline constexpr uint64_t kNoLineRate = UINT64_MAX;

// What every queue paced on one port (or every flow of one host) shares, built once: the line
// rate, the clock, the framing and the catch-up allowance. The per-queue state below is given
// it on each call, as DPDK's rte_meter takes its profile beside its state.
struct RateLimiterProfile {
  RateLimiterProfile(uint64_t line_rate_bps, const TickRate& ticks, const WireFraming& framing = {},
                     uint64_t catch_up_ticks = 0)
      : line_rate_bps(line_rate_bps),
        hz(ticks.hz),
        framing(framing),
        catch_up_ticks(catch_up_ticks) {}

  uint64_t line_rate_bps;
  uint64_t hz;
  WireFraming framing;
  uint64_t catch_up_ticks;
};

// One queue's schedule (six words): at the profile's line rate until set_rate says otherwise.
class RateLimiter {
 public:
  explicit RateLimiter(const RateLimiterProfile& profile) : rate_bps_(profile.line_rate_bps) {}

  // Takes effect for the next packet: the gap after the last one is recomputed at the new
  // rate (its sub-tick remainder is dropped: at most one tick, once per change). 0 stops the
  // queue until a rate above 0 is set.
  void set_rate(const RateLimiterProfile& profile, uint64_t rate_bps);
  uint64_t rate_bps() const { return rate_bps_; }
  bool unlimited(const RateLimiterProfile& profile) const {
    return rate_bps_ >= profile.line_rate_bps;
  }

  bool may_send(uint64_t now_ticks) const { return now_ticks >= next_open_ticks_; }
  // A frame of `frame_bytes` (without FCS) starts now.
  void on_send(const RateLimiterProfile& profile, uint64_t now_ticks, uint32_t frame_bytes);
  // How many of the frames, in order, may start now, each after the ones before it started:
  // what may_send/on_send would allow one by one, without changing the schedule.
  unsigned budget(const RateLimiterProfile& profile, uint64_t now_ticks,
                  const uint32_t* frame_bytes, unsigned count) const {
    if (!may_send(now_ticks)) return 0;
    if (unlimited(profile)) return count;  // R_c = 0: the schedule stays at or before now
    RateLimiter ahead = *this;
    unsigned n = 0;
    while (n < count && ahead.may_send(now_ticks))
      ahead.on_send(profile, now_ticks, frame_bytes[n++]);
    return n;
  }
  // The first `count` of them started now.
  void commit(const RateLimiterProfile& profile, uint64_t now_ticks, const uint32_t* frame_bytes,
              unsigned count) {
    if (count == 0) return;
    on_send(profile, now_ticks, frame_bytes[0]);
    // R_c = 0: the first left the queue open from its start, so each later one is on
    // schedule by the same test, starts there too and changes only the last length (what a
    // rate change reschedules from). GFC's stage 0 sends this way.
    if (rate_bps_ != 0 && unlimited(profile)) {
      last_bits_ = profile.framing.wire_bits(frame_bytes[count - 1]);
      return;
    }
    for (unsigned i = 1; i < count; ++i) on_send(profile, now_ticks, frame_bytes[i]);
  }
  // When the queue may send next; kNeverTicks while the rate is 0.
  uint64_t next_open_ticks() const { return next_open_ticks_; }

 private:
  void schedule_after(const RateLimiterProfile& profile, uint64_t start_ticks,
                      uint64_t start_remainder, uint64_t bits);

  uint64_t rate_bps_;
  bool sent_ = false;
  uint64_t last_start_ticks_ = 0;
  uint64_t last_bits_ = 0;
  uint64_t next_open_ticks_ = 0;
  uint64_t remainder_ = 0;  // of next_open, in 1/rate_bps_ ticks: always < rate_bps_
};

}  // namespace fcswitch::shaping

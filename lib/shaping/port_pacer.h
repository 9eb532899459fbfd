#pragma once
// A whole port (or a lab link) held to a rate: the GFC rate limiter applied to every frame
// the port sends, whatever its queue. Caps a real port below its line rate, and serialises
// the lab's ring links at their rate (there the ring has no line rate of its own).

#include <cstdint>

#include "shaping/rate_limiter.h"

namespace fcswitch::shaping {

class PortPacer {
 public:
  // `line_rate_bps`: what the port does by itself (kNoLineRate for a ring); `rate_bps`: the cap.
  PortPacer(uint64_t line_rate_bps, uint64_t rate_bps, const TickRate& ticks,
            const WireFraming& framing = {}, uint64_t catch_up_ticks = 0);

  // How many of the frames, in order, may start now; each one admitted is charged.
  unsigned admit(uint64_t now_ticks, const uint32_t* frame_bytes, unsigned count);
  bool may_send(uint64_t now_ticks) const { return limiter_.may_send(now_ticks); }
  void on_send(uint64_t now_ticks, uint32_t frame_bytes) {
    limiter_.on_send(profile_, now_ticks, frame_bytes);
  }
  uint64_t next_open_ticks() const { return limiter_.next_open_ticks(); }
  uint64_t rate_bps() const { return limiter_.rate_bps(); }
  bool unlimited() const { return limiter_.unlimited(profile_); }

 private:
  RateLimiterProfile profile_;  // the port's own: one schedule follows it
  RateLimiter limiter_;
};

}  // namespace fcswitch::shaping

#include "shaping/port_pacer.h"

namespace fcswitch::shaping {

PortPacer::PortPacer(uint64_t line_rate_bps, uint64_t rate_bps, const TickRate& ticks,
                     const WireFraming& framing, uint64_t catch_up_ticks)
    : profile_(line_rate_bps, ticks, framing, catch_up_ticks), limiter_(profile_) {
  limiter_.set_rate(profile_, rate_bps);
}

unsigned PortPacer::admit(uint64_t now, const uint32_t* frame_bytes, unsigned count) {
  unsigned n = 0;
  while (n < count && limiter_.may_send(now)) limiter_.on_send(profile_, now, frame_bytes[n++]);
  return n;
}

}  // namespace fcswitch::shaping

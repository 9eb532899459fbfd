#include "fc/response_time_meter.h"

namespace fcswitch::fc {

void ResponseTimeMeter::on_pause(uint64_t now_ticks) {
  paused_at_ = now_ticks;
  measuring_ = true;
}

void ResponseTimeMeter::on_resume(uint64_t now_ticks, uint64_t last_arrival_ticks) {
  observe(now_ticks, last_arrival_ticks);
  if (measuring_) unfinished_.increment();
  measuring_ = false;
}

void ResponseTimeMeter::observe(uint64_t now_ticks, uint64_t last_arrival_ticks) {
  if (!measuring_) return;
  // The input goes quiet quiet_ticks after the last frame seen (or after the decision). A
  // frame that came later than that is not part of the response: the measurement ended
  // before it, however late we look. So the sample does not depend on how often we look, as
  // long as every arrival is seen (the lab's virtual clock polls TX when its input changes).
  if (last_arrival_ticks < quiet_at_ticks()) seen_arrival_ticks_ = last_arrival_ticks;
  if (now_ticks < quiet_at_ticks()) return;
  // Nothing arrived since the decision: the upstream had stopped already; no τ to see.
  if (seen_arrival_ticks_ >= paused_at_) {
    const uint64_t ns = ticks_.to_ns(seen_arrival_ticks_ - paused_at_);
    histogram_.record(ns);
    if (ns > recent_max_ns_.load(std::memory_order_relaxed))
      recent_max_ns_.store(ns, std::memory_order_relaxed);
  }
  measuring_ = false;
}

}  // namespace fcswitch::fc

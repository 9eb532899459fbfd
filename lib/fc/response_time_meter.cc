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
  // Nothing arrived since the decision: the upstream had stopped already; no τ to see.
  if (last_arrival_ticks < paused_at_) {
    if (now_ticks - paused_at_ >= quiet_ticks_) measuring_ = false;
    return;
  }
  if (now_ticks - last_arrival_ticks < quiet_ticks_) return;
  histogram_.record(ticks_.to_ns(last_arrival_ticks - paused_at_));
  measuring_ = false;
}

}  // namespace fcswitch::fc

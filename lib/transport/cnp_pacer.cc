#include "transport/cnp_pacer.h"

namespace fcswitch::transport {

CnpPacer::CnpPacer(uint64_t interval_ns, const TickRate& ticks)
    : interval_ticks_(ticks.from_ns(interval_ns)) {}

bool CnpPacer::on_ce(uint64_t now_ticks) {
  if (sent_ > 0 && now_ticks - last_cnp_ticks_ < interval_ticks_) {
    ++suppressed_;
    return false;
  }
  last_cnp_ticks_ = now_ticks;
  ++sent_;
  return true;
}

}  // namespace fcswitch::transport

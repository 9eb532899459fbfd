#pragma once
// DCQCN's notification point (NP), for one flow at the receiver (Zhu et al., SIGCOMM'15, the NP
// algorithm): "if a marked packet arrives for a flow, and no CNP has been sent for the flow in
// the last N microseconds, a CNP is sent immediately". So the first CE of a flow sends one at
// once, and a CE exactly N after the last CNP sends the next (the window (t, t + N] no longer
// holds t). Pure: time is an argument.

#include <cstdint>

#include "core/tick_rate.h"

namespace fcswitch::transport {

class CnpPacer {
 public:
  CnpPacer(uint64_t interval_ns, const TickRate& ticks);

  // A CE-marked packet of this flow arrived: true means send a CNP now (and it is counted).
  bool on_ce(uint64_t now_ticks);
  uint64_t sent() const { return sent_; }
  // CE arrivals that did not send one: the marks the interval absorbed.
  uint64_t suppressed() const { return suppressed_; }

 private:
  uint64_t interval_ticks_;
  uint64_t last_cnp_ticks_ = 0;
  uint64_t sent_ = 0;
  uint64_t suppressed_ = 0;
};

}  // namespace fcswitch::transport

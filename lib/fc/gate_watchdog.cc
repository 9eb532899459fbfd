#include "fc/gate_watchdog.h"

namespace fcswitch::fc {

GateWatchdog::GateWatchdog(const WatchdogConfig& config, const TickRate& ticks)
    : enabled_(config.detect_ns != 0),
      detect_ticks_(ticks.from_ns(config.detect_ns)),
      restore_ticks_(ticks.from_ns(config.restore_ns)),
      action_(config.action) {}

WatchdogEvent GateWatchdog::observe(uint64_t now, bool gate_closed, bool backlogged) {
  if (!enabled_) return WatchdogEvent::kNone;
  const bool blocked = gate_closed && backlogged;
  switch (state_) {
    case State::kWatching:
      if (!blocked) {
        blocked_since_ = kNeverTicks;
        return WatchdogEvent::kNone;
      }
      if (blocked_since_ == kNeverTicks) blocked_since_ = now;
      if (now - blocked_since_ < detect_ticks_) return WatchdogEvent::kNone;
      storms_.increment();
      blocked_since_ = kNeverTicks;
      open_since_ = kNeverTicks;
      acting_ = action_ != WatchdogAction::kAlert;
      state_ = acting_ ? State::kActing : State::kAlerted;
      return WatchdogEvent::kStormDetected;
    case State::kAlerted:
      if (blocked) return WatchdogEvent::kNone;
      state_ = State::kWatching;
      restores_.increment();
      return WatchdogEvent::kRestored;
    case State::kActing:
      // The queue drains (forward) or empties (drop) while acting: only the gate tells
      // whether the downstream still holds it back.
      if (gate_closed) {
        open_since_ = kNeverTicks;
        return WatchdogEvent::kNone;
      }
      if (open_since_ == kNeverTicks) open_since_ = now;
      if (now - open_since_ < restore_ticks_) return WatchdogEvent::kNone;
      state_ = State::kWatching;
      acting_ = false;
      open_since_ = kNeverTicks;
      restores_.increment();
      return WatchdogEvent::kRestored;
  }
  return WatchdogEvent::kNone;
}

uint64_t GateWatchdog::next_action_ticks() const {
  if (state_ == State::kWatching && blocked_since_ != kNeverTicks)
    return blocked_since_ + detect_ticks_;
  if (state_ == State::kActing && open_since_ != kNeverTicks) return open_since_ + restore_ticks_;
  return kNeverTicks;
}

}  // namespace fcswitch::fc

#pragma once
// A watchdog for one gated egress queue, as commodity switches have for PFC storms: a
// queue that holds packets while its gate stays closed for `detect` is reported (a
// counter, and an event the caller logs). What happens next is the action:
//   alert    — nothing more (the default: a deadlock experiment must not be cured by it);
//   forward  — the gate is ignored, the queue sends as if no pause or credit limit held;
//   drop     — the queue's packets are dropped (counted as watchdog_drop).
// An acting watchdog stands down once the gate has stayed open for `restore`, i.e. the
// downstream has stopped pausing. Any gate (PFC, CBFC, later GFC) can be watched.

#include <cstdint>

#include "core/owned_counter.h"
#include "core/tick_rate.h"
#include "fc/counter_descriptor.h"

namespace fcswitch::fc {

enum class WatchdogAction : uint8_t { kAlert, kForward, kDrop };

struct WatchdogConfig {
  uint64_t detect_ns = 200'000'000;  // 0: no watchdog
  uint64_t restore_ns = 200'000'000;
  WatchdogAction action = WatchdogAction::kAlert;
};

enum class WatchdogEvent : uint8_t { kNone, kStormDetected, kRestored };

// storms(), as reports show it for the watched (port, priority) (fc/counter_descriptor.h).
inline constexpr CounterDescriptor kWatchdogStormsCounter =
    counter("watchdog_storms", "fcswitch_watchdog_storms_total",
            "Times the watchdog found this queue held by its gate too long (a pause storm)");
// restores(), likewise: a storm over (the gate stayed open for `restore`).
inline constexpr CounterDescriptor kWatchdogRestoresCounter =
    counter("watchdog_restores", "fcswitch_watchdog_restores_total",
            "Times the watchdog stood down: the gate stayed open for its restore time");

class GateWatchdog {
 public:
  GateWatchdog(const WatchdogConfig& config, const TickRate& ticks);

  // Once per TX poll. `gate_closed`: the gate refuses the head packet (or would refuse a
  // minimum-size one when the queue is empty); `backlogged`: the queue holds packets.
  WatchdogEvent observe(uint64_t now_ticks, bool gate_closed, bool backlogged);

  // While acting, what to do instead of obeying the gate.
  bool forwarding() const { return acting_ && action_ == WatchdogAction::kForward; }
  bool dropping() const { return acting_ && action_ == WatchdogAction::kDrop; }
  bool storm() const { return state_ != State::kWatching; }
  uint64_t next_action_ticks() const;

  uint64_t storms() const { return storms_.read(); }
  uint64_t restores() const { return restores_.read(); }

 private:
  enum class State : uint8_t { kWatching, kAlerted, kActing };

  bool enabled_;
  uint64_t detect_ticks_;
  uint64_t restore_ticks_;
  WatchdogAction action_;
  State state_ = State::kWatching;
  bool acting_ = false;
  uint64_t blocked_since_ = kNeverTicks;
  uint64_t open_since_ = kNeverTicks;
  OwnedCounter storms_;
  OwnedCounter restores_;
};

}  // namespace fcswitch::fc

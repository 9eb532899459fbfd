#pragma once
// IEEE 802.1Qbb priority-based flow control (GFC §2.2.1, Fig. 2a).
//
// Receiver: when the ingress occupancy of (port, priority) reaches XOFF, send a pause of
// `pause_quanta`; while paused, send it again every `refresh_quanta` so that it never runs
// out while the queue is above XON; when the occupancy falls below XON, send time 0 (XON).
// Sender: a pause of q quanta stops the priority for q × 512 bit times at the link rate
// from the moment the frame arrived; a later frame replaces the timer; time 0 resumes.

#include <algorithm>
#include <cstdint>

#include "core/owned_counter.h"
#include "fc/engine.h"
#include "fc/engine_registry.h"

namespace fcswitch::fc {

struct PfcParams : EngineParams {
  uint64_t xoff_bytes = 0;  // 0: the largest the headroom allows, B_m − C·τ
  uint64_t xon_bytes = 0;  // 0: XOFF − 3000 (two 1500-byte frames, as the GFC testbed's 800/797 KB)
  uint16_t pause_quanta = 0xFFFF;
  uint16_t refresh_quanta = 0x8000;

  // Fills the defaults that depend on the link.
  PfcParams resolved(const LinkParams& link) const;
  // The headroom above XOFF against C·τ at the measured τ.
  std::string tau_breaks(const LinkParams& link, uint64_t tau_ns) const override;
};

// Pause time of `quanta` at `rate_bps`, in ticks (rounded up).
uint64_t pfc_pause_ticks(uint16_t quanta, uint64_t rate_bps, const TickRate& ticks);
// C·τ in bytes (rounded up): what arrives after XOFF before the upstream stops.
uint64_t bytes_in_flight(const LinkParams& link);

class PfcFeedbackGenerator final : public FeedbackGenerator {
 public:
  PfcFeedbackGenerator(const PfcParams& resolved, const EngineContext& context);

  void poll(uint64_t now_ticks, const IngressView& in, FeedbackOut& out) override;
  uint64_t next_action_ticks() const override;
  void counters(const CounterSink& sink) const override;
  uint64_t level() const override { return xoff_gauge_.read(); }
  bool level_pauses() const override { return true; }
  // Out of XOFF only reaching xoff_bytes makes it act; in XOFF, falling below xon_bytes (its
  // refreshes are timers); after a link came back, the next poll.
  OccupancyBand quiet_band() const override {
    if (resend_) return OccupancyBand::any_change();
    return xoff_ ? OccupancyBand{xon_bytes_, OccupancyBand::kUnboundedBytes}
                 : OccupancyBand{0, xoff_bytes_};
  }
  // An XON sent while the link was down is lost, and nothing repeats it: the upstream would
  // stay paused for the rest of its pause time (3.4 ms at 10 Gb/s). The next poll says the
  // state again: the pause (as a refresh) in XOFF, XON once any pause was asserted.
  void link_restored() override { resend_ = true; }

  bool xoff() const { return xoff_; }
  uint64_t xoff_transitions() const { return xoff_transitions_.read(); }
  uint64_t xon_transitions() const { return xon_transitions_.read(); }

 private:
  void request(FeedbackOut& out, uint16_t quanta) const;
  // A pause frame (XOFF, refresh or XON) leaves at `now`: was it too late to land before the
  // last pause ran out at the upstream (it left `pause − response_time` or more after it)?
  void note_pause_gap(uint64_t now);

  int priority_;
  uint64_t xoff_bytes_;
  uint64_t xon_bytes_;
  uint16_t pause_quanta_;
  uint64_t refresh_ticks_;
  TickRate ticks_;
  // A frame that leaves this long or more after the last pause may land after the upstream's
  // timer ran out: pause time − response_time (the frame's way there is at most τ).
  uint64_t late_after_ticks_;
  uint64_t last_pause_ticks_ = 0;
  bool xoff_ = false;
  bool resend_ = false;  // say the state at the next poll, even without a crossing
  uint64_t next_refresh_ticks_ = kNeverTicks;
  OwnedCounter xoff_transitions_;
  OwnedCounter xon_transitions_;
  OwnedCounter refreshes_;
  // Frames sent too late for the last pause (note_pause_gap): the switch's own CPU was taken
  // away, or its TX polled too seldom, longer than the pause leaves room for. Each may be a
  // pause that ran out at the upstream while this port held XOFF.
  OwnedCounter late_pause_frames_;
  OwnedGauge longest_pause_gap_ticks_;  // the longest time from a pause to the next frame
  OwnedGauge xoff_gauge_;               // xoff_, for readers on other threads
};

class PfcEgressGate final : public EgressGate {
 public:
  PfcEgressGate(uint64_t rate_bps, const TickRate& ticks);

  void on_message(const ControlMessage& message) override;
  void poll(uint64_t now_ticks) override;
  // Paused: none of them; otherwise all (a pause holds whole priorities, not bytes).
  uint16_t budget(uint64_t now_ticks, const uint32_t*, uint16_t count) const override {
    return paused(now_ticks) ? 0 : count;
  }
  void commit(uint64_t, const uint32_t*, uint16_t) override {}
  uint64_t next_action_ticks() const override;
  void counters(const CounterSink& sink) const override;

  bool paused(uint64_t now_ticks) const { return now_ticks < paused_until_ticks_; }
  uint64_t paused_until_ticks() const { return paused_until_ticks_; }
  uint64_t paused_ticks() const { return paused_ticks_.read(); }
  uint64_t pauses_received() const { return pauses_received_.read(); }
  uint64_t resumes_received() const { return resumes_received_.read(); }
  uint64_t expiries() const { return expiries_.read(); }
  uint64_t unseen_expiries() const { return unseen_expiries_.read(); }

 private:
  // Paused time up to `now_ticks`, and the pause's expiry if it ran out by then. Any later
  // time gives the same counts as every time in between would (EgressGate::poll's contract).
  void settle(uint64_t now_ticks);

  uint64_t rate_bps_;
  TickRate ticks_;
  uint64_t pause_start_ticks_ = 0;
  uint64_t paused_until_ticks_ = 0;  // paused while now < this
  uint64_t accounted_to_ticks_ = 0;
  uint64_t polled_to_ticks_ = 0;  // the latest poll (TX could send then)
  bool expiry_pending_ = false;   // a pause is running that no frame has ended yet
  OwnedCounter paused_ticks_;
  OwnedCounter pauses_received_;
  OwnedCounter resumes_received_;
  OwnedCounter expiries_;
  OwnedCounter unseen_expiries_;  // of expiries_, those no poll saw (settle)
};

}  // namespace fcswitch::fc

#pragma once
// The flow-control slot (docs/architecture.md): one engine per (port, lossless priority), in two
// halves at the two ends of a link.
//
//   FeedbackGenerator — receiver side. Watches the ingress occupancy of its (port,
//     priority) and asks for frames upstream: on threshold crossings (PFC) or on a period
//     (CBFC).
//   EgressGate — sender side. Takes what the downstream neighbour sent (ControlMessage)
//     and says when the egress queue of its (port, priority) may send.
//
// Both halves are pure: time comes in as ticks, nothing reads a clock, calls DPDK or
// allocates after construction. Each says when it will next act on its own (a pause that
// expires, a credit period) so that a virtual clock can jump there. TX(p) drives both halves
// of port p from one thread; other threads only read their counters.

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "core/tick_rate.h"
#include "fc/control_message.h"
#include "fc/counter_descriptor.h"
#include "fc/feedback_out.h"
#include "fc/occupancy_band.h"
#include "shaping/rate_limiter.h"

namespace fcswitch::fc {

// What the generator sees of its (port, priority).
struct IngressView {
  uint64_t occupancy_bytes = 0;  // bytes received at this port and priority, still in the switch
  uint32_t received_blocks = 0;  // CBFC's ABR: 64-byte blocks received, resynchronised (mod 2^32)
};

class FeedbackGenerator {
 public:
  virtual ~FeedbackGenerator() = default;
  // Decides whether to send feedback now; if so writes entry `priority` of `out`.
  virtual void poll(uint64_t now_ticks, const IngressView& in, FeedbackOut& out) = 0;
  // The earliest time it will ask to send without a change of occupancy; kNeverTicks if none.
  virtual uint64_t next_action_ticks() const = 0;
  // The occupancies at which a poll before next_action_ticks() would ask for nothing and
  // change nothing, whatever else of its input changed (fc/occupancy_band.h): empty (the
  // default) when any change may matter. The TX task asks it again only once the occupancy
  // has left the band (TxTask's quiet polls), and the lab polls that task only then
  // (switch/feedback_wake_bands.h). The band is noted before a poll: a poll that moves it
  // sends something (and the task is polled again, which notes the new one), or only makes
  // fewer changes matter (PFC's resend done with nothing to say), so a noted band may wake
  // the task more often than it needs, never less.
  virtual OccupancyBand quiet_band() const { return OccupancyBand::any_change(); }
  virtual void counters(const CounterSink& sink) const = 0;
  // What it holds the upstream to now, for traces: 0 nothing; PFC 1 while XOFF is asserted;
  // buffer-based GFC the stage. Any thread.
  virtual uint64_t level() const { return 0; }
  // A non-zero level stops the upstream (PFC's XOFF): τ is then measured at this input
  // (fc/response_time_meter.h).
  virtual bool level_pauses() const { return false; }
  // The port's link came back: what was sent while it was down is lost, and the upstream may
  // be a new process. An engine that speaks only on change (a GFC stage, PFC's XON) says its
  // state again at the next poll; one that repeats itself (credits every period) need not.
  virtual void link_restored() {}
};

class EgressGate {
 public:
  virtual ~EgressGate() = default;
  // A message from downstream for this priority.
  virtual void on_message(const ControlMessage& message) = 0;
  // Once per TX poll, before any budget: lets timers run out and time be accounted. A caller
  // may skip polls (the lab's virtual clock polls a quiet TX task only at an input or at
  // next_action_ticks: TxTask::idle_until_input), so a poll at time t must leave the gate as
  // polls at every time up to t would have: what happens by itself in between is computed
  // from t, not counted per poll, and a message settles it to its own arrival first.
  virtual void poll(uint64_t now_ticks) = 0;
  // False when poll() does nothing: the TX task does not call it (one call per gate and poll).
  virtual bool polled() const { return true; }
  // How many of the queue's head packets, `bytes[0..count)` long in order, may start now: a
  // prefix, each allowed given that the ones before it went. Asked once per burst, not per
  // packet: the TX task makes one virtual call per queue and the engine's arithmetic runs
  // inline over the lengths.
  virtual uint16_t budget(uint64_t now_ticks, const uint32_t* bytes, uint16_t count) const = 0;
  // The first `count` of them were taken for transmission (count ≤ what budget allowed, or
  // anything while a watchdog forwards past the gate).
  virtual void commit(uint64_t now_ticks, const uint32_t* bytes, uint16_t count) = 0;

  // One packet: may it start now; it was taken. For tests and single-packet callers.
  bool may_send(uint64_t now_ticks, uint32_t bytes) const { return budget(now_ticks, &bytes, 1); }
  void on_dequeue(uint64_t now_ticks, uint32_t bytes) { commit(now_ticks, &bytes, 1); }
  // The earliest time the gate opens by itself; kNeverTicks if only a message can open it.
  virtual uint64_t next_action_ticks() const = 0;
  virtual void counters(const CounterSink& sink) const = 0;
};

// The link an engine instance serves, and the clock it runs on.
struct LinkParams {
  uint64_t rate_bps = 10'000'000'000;
  uint64_t response_time_ns = 0;  // τ: feedback decision to reaction on the wire (GFC Eq. 6)
  uint64_t buffer_bytes = 0;      // B_m: the lossless ingress buffer of (port, priority)
  // What buffer-based GFC keeps below B_m (gfc_stage_table.h), the same at both ends of the link
  // as τ: room for a frame of the largest size (admission takes whole frames) and for the
  // frames the upstream's TX committed past its gate before a stage reached it, which arrive
  // at line rate whatever the stage says. 1 committed frame is GFC Eq. 6's own (the one on the
  // wire); config::PortConfig::link_params() counts a port's.
  uint32_t max_frame_bytes = 1518;  // MTU 1500 + Ethernet header + VLAN tag
  uint32_t committed_frames = 1;
  uint64_t room_bytes() const {
    return uint64_t{max_frame_bytes} * (1 + uint64_t{committed_frames});
  }
};

struct EngineContext {
  LinkParams link;
  TickRate ticks;
  int priority = 0;
  // MAC Control opcode of buffer-based GFC's stage frames on this link (GFC §5.1 reuses the
  // PFC frame; a testbed may give them their own opcode so no NIC takes a stage for a pause).
  uint16_t stage_opcode = 0x0101;
  // Rate limiters: what a frame costs on the wire, and how late a poll may be before the
  // schedule restarts (shaping/rate_limiter.h). 0 in virtual time.
  shaping::WireFraming framing{};
  uint64_t limiter_catch_up_ticks = 0;
  // The port's rate-limiter profile (the four above), built once and shared by its queues'
  // limiters; null where a context is made by hand (a test): each engine then builds its own.
  std::shared_ptr<const shaping::RateLimiterProfile> limiter_profile{};

  std::shared_ptr<const shaping::RateLimiterProfile> shared_limiter_profile() const {
    return limiter_profile ? limiter_profile
                           : std::make_shared<const shaping::RateLimiterProfile>(
                                 link.rate_bps, ticks, framing, limiter_catch_up_ticks);
  }
};

struct EngineInstance {
  std::unique_ptr<FeedbackGenerator> generator;
  std::unique_ptr<EgressGate> gate;
};

}  // namespace fcswitch::fc

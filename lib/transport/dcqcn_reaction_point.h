#pragma once
// DCQCN's reaction point (RP): the sender's rate for one flow (Zhu et al., SIGCOMM'15, the RP
// algorithm; its increase phases are QCN's, IEEE 802.1Qau). Pure: time is an argument.
//
// A CNP cuts the rate:    R_T = R_C;  R_C = R_C·(1 − α/2);  α = (1 − g)·α + g
// (in that order, as the paper writes them: the cut uses α as it was before this CNP; the
// authors' ns-3 updates α first). Without a CNP for K, α ← (1 − g)·α.
// After a cut, increase events come from a timer (one per T) and a byte counter (one per B
// bytes sent). Each is one of, by the stage counters T and BC (events of each kind since the
// last CNP, not counting this one):
//   fast recovery  max(T, BC) < F:        R_C = (R_T + R_C)/2
//   additive       max(T, BC) ≥ F > min:  R_T += R_AI;    R_C = (R_T + R_C)/2
//   hyper          min(T, BC) ≥ F:        R_T += i·R_HAI; R_C = (R_T + R_C)/2,
//                                         i = min(T, BC) − F + 1
// so fast recovery is F events long (QCN's "5 cycles of fast recovery"), and the i-th hyper
// event adds i·R_HAI. The authors' ns-3 (bobzhuyb/ns3-rdma, QbbNetDevice::rpr_hyper_increase)
// adds R_HAI·(min(ByteStage, TimeStage) − F + 1) too, but counts the event itself before it
// compares, which makes its F-th event already additive (4 fast-recovery events); we keep the
// F events the papers describe. QCN and that ns-3 halve T and B in hyper increase; the DCQCN
// paper describes them fixed, and so are they here.
//
// Rates are integers in bit/s: a cut rounds down, (R_T + R_C)/2 rounds up — the gap to R_T
// becomes ⌊gap/2⌋, so R_C reaches R_T instead of stopping one bit/s short. R_T and R_C never
// exceed the line rate; R_C never falls below min_rate_bps (R_T = R_C before a cut, so R_T
// never does either). α is a double; with the paper's g = 1/256 and α₀ of 1 or 1/2 its first
// values are exact binary fractions.
//
// Before the first CNP the flow sends at line rate, as a DCQCN flow starts (there is no slow
// start), and there is nothing to time: no timer runs and the byte counter is idle. From the
// first CNP on, the α timer runs for the life of the flow. The increase timer and the byte
// counter run while R_C is below line rate: once R_C reaches it, R_T has too (R_C ≤ R_T ≤
// line rate), every further increase event would leave both where they are, and the next CNP
// resets the stages anyway — so they stop, and a virtual clock need not wake for them.

#include <cstdint>

#include "core/tick_rate.h"
#include "transport/dcqcn_params.h"

namespace fcswitch::transport {

class DcqcnReactionPoint {
 public:
  DcqcnReactionPoint(const DcqcnParams& params, uint64_t line_rate_bps, const TickRate& ticks);

  // A CNP for this flow: timers due by now act first, then the cut; both stages and the byte
  // counter restart, the increase timer fires T from now and the α timer K from now.
  void on_cnp(uint64_t now_ticks);
  // `bytes` of this flow went out (frame bytes, as the byte counter counts them): timers due by
  // now act first, then one increase event per B bytes since the last event or CNP. Inline: it
  // runs for every frame, and mostly finds nothing due.
  void on_sent(uint64_t now_ticks, uint32_t bytes) {
    poll(now_ticks);
    if (!counting_bytes_) return;
    bytes_since_event_ += bytes;
    if (bytes_since_event_ >= byte_counter_bytes_) count_byte_events();
  }
  // Every timer event due by now, in time order (the α timer first on a tie: the two touch
  // different state, so the order only fixes which is counted first).
  void poll(uint64_t now_ticks) {
    if (now_ticks >= next_event_ticks()) run_timers(now_ticks);
  }
  // The earliest pending timer; kNeverTicks when none runs.
  uint64_t next_event_ticks() const {
    return alpha_due_ticks_ < increase_due_ticks_ ? alpha_due_ticks_ : increase_due_ticks_;
  }

  uint64_t rate_bps() const { return rate_bps_; }                // R_C: what the pacer sends at
  uint64_t target_rate_bps() const { return target_rate_bps_; }  // R_T
  uint64_t line_rate_bps() const { return line_rate_bps_; }
  double alpha() const { return alpha_; }
  uint64_t cnps() const { return cnps_; }  // CNPs reacted to
  uint32_t timer_stage() const { return timer_stage_; }
  uint32_t byte_stage() const { return byte_stage_; }
  uint64_t increase_events() const { return increase_events_; }  // all kinds, timer and bytes

 private:
  void run_timers(uint64_t now_ticks);
  void count_byte_events();
  void increase();
  // Once R_C is at line rate, nothing more to increase: the timer and the counter stop.
  void stop_increase_if_at_line_rate();

  // Profile.
  double g_;
  uint64_t alpha_period_ticks_;
  uint64_t increase_period_ticks_;
  uint64_t byte_counter_bytes_;
  uint32_t fast_recovery_steps_;
  uint64_t additive_increase_bps_;
  uint64_t hyper_increase_bps_;
  uint64_t min_rate_bps_;
  uint64_t line_rate_bps_;

  // State.
  uint64_t rate_bps_;
  uint64_t target_rate_bps_;
  double alpha_;
  uint64_t alpha_due_ticks_ = kNeverTicks;
  uint64_t increase_due_ticks_ = kNeverTicks;
  bool counting_bytes_ = false;
  uint64_t bytes_since_event_ = 0;
  uint32_t timer_stage_ = 0;
  uint32_t byte_stage_ = 0;
  uint64_t cnps_ = 0;
  uint64_t increase_events_ = 0;
};

}  // namespace fcswitch::transport

#pragma once
// Buffer-based GFC (GFC §4.2, §5.1), engine "gfc-buffer".
//
// Receiver: when the ingress occupancy of (port, priority) moves into another stage of the
// GfcStageTable, send the new stage id upstream in the time field of a PFC-layout frame
// (GFC §5.1, Fig. 7), with the link's stage opcode. Nothing is sent while the stage holds.
// Sender: stage k sets the rate limiter of the egress queue to R_k = C/2^k from the table
// (stage 0: line rate, no wait); the new rate applies from the next packet (GFC §5.3).

#include <cstdint>

#include "core/owned_counter.h"
#include "fc/engine.h"
#include "fc/engine_registry.h"
#include "fc/gfc_stage_table.h"
#include "shaping/rate_limiter.h"

namespace fcswitch::fc {

struct GfcBufferParams : EngineParams {
  uint64_t b1_bytes = 0;  // 0: the largest Theorem 4.1 allows, B_m − 2Cτ (GFC §5.4)
  // Theorem 4.1's bound on B_1 at the measured τ.
  std::string tau_breaks(const LinkParams& link, uint64_t tau_ns) const override;
  bool allow_theorem_violation = false;
};

class GfcBufferFeedbackGenerator final : public FeedbackGenerator {
 public:
  GfcBufferFeedbackGenerator(const GfcStageTable& table, const EngineContext& context);

  void poll(uint64_t now_ticks, const IngressView& in, FeedbackOut& out) override;
  uint64_t next_action_ticks() const override { return resend_ ? 0 : kNeverTicks; }
  void counters(const CounterSink& sink) const override;
  uint64_t level() const override { return stage_gauge_.read(); }
  // A stage sent into a cut link is lost, and nothing else would change a stage the queue
  // holds: the upstream could stay at C/2^k with this input empty for ever.
  void link_restored() override { resend_ = true; }
  // A message only when the occupancy steps into another stage (GFC §4.2): the stage's own
  // range of occupancy is quiet.
  OccupancyBand quiet_band() const override {
    return resend_ ? OccupancyBand::any_change() : table_.occupancy_band(stage_);
  }

  int stage() const { return stage_; }

 private:
  GfcStageTable table_;
  int priority_;
  int stage_ = 0;        // last one sent; the sender starts at stage 0 (line rate)
  bool resend_ = false;  // send the stage at the next poll even if it holds
  OwnedGauge stage_gauge_;
  OwnedGauge max_stage_;
  OwnedCounter stage_messages_;
};

class GfcBufferEgressGate final : public EgressGate {
 public:
  GfcBufferEgressGate(const GfcStageTable& table, const EngineContext& context);

  void on_message(const ControlMessage& message) override;
  void poll(uint64_t) override {}
  bool polled() const override { return false; }
  uint16_t budget(uint64_t now_ticks, const uint32_t* bytes, uint16_t count) const override {
    return static_cast<uint16_t>(limiter_.budget(*profile_, now_ticks, bytes, count));
  }
  void commit(uint64_t now_ticks, const uint32_t* bytes, uint16_t count) override {
    limiter_.commit(*profile_, now_ticks, bytes, count);
  }
  uint64_t next_action_ticks() const override;
  void counters(const CounterSink& sink) const override;

  int stage() const { return stage_; }
  uint64_t rate_bps() const { return limiter_.rate_bps(); }

 private:
  GfcStageTable table_;
  uint16_t opcode_;
  std::shared_ptr<const shaping::RateLimiterProfile> profile_;  // the port's
  shaping::RateLimiter limiter_;
  int stage_ = 0;
  OwnedGauge stage_gauge_;  // stage_ and the rate, for readers on other threads
  OwnedGauge rate_gauge_;
  OwnedCounter stage_messages_;
  OwnedCounter foreign_messages_;  // PFC or another opcode on a priority that runs GFC
  OwnedCounter stages_clamped_;    // a stage above our N: the neighbour has another table
};

}  // namespace fcswitch::fc

#pragma once
// Time-based GFC (GFC §5.2), engine "gfc-time".
//
// Receiver: CBFC's periodic credit message, unchanged (CbfcFeedbackGenerator).
// Sender: on each update, the remaining buffer (FCCL − FCTBS) × 64 bytes is mapped to a rate
// by the GfcLinearMap and set on the queue's rate limiter; it holds until the next update.
// The credit limit itself still holds, as in CBFC: with B_0 inside Theorem 5.1 the queue
// never reaches B_m and credits never run out, but an experiment that breaks the bound on
// purpose stays lossless.

#include <cstdint>

#include "core/owned_counter.h"
#include "fc/cbfc_engine.h"
#include "fc/engine.h"
#include "fc/gfc_linear_map.h"
#include "shaping/rate_limiter.h"

namespace fcswitch::fc {

struct GfcTimeParams : CbfcParams {
  uint64_t b0_bytes = 0;  // 0: the largest Theorem 5.1 allows
  bool allow_theorem_violation = false;
  // Theorem 5.1's bound on B_0 at the measured τ.
  std::string tau_breaks(const LinkParams& link, uint64_t tau_ns) const override;
};

class GfcTimeEgressGate final : public EgressGate, public CreditSender {
 public:
  GfcTimeEgressGate(const GfcLinearMap& map, const EngineContext& context);

  void on_message(const ControlMessage& message) override;
  void poll(uint64_t) override {}
  bool polled() const override { return false; }
  // A packet needs both the limiter and the credits; each allows a prefix of the head, so
  // together the shorter one.
  uint16_t budget(uint64_t now_ticks, const uint32_t* bytes, uint16_t count) const override {
    const auto paced = static_cast<uint16_t>(limiter_.budget(*profile_, now_ticks, bytes, count));
    return paced ? credit_.budget(now_ticks, bytes, paced) : 0;
  }
  void commit(uint64_t now_ticks, const uint32_t* bytes, uint16_t count) override;
  uint64_t next_action_ticks() const override;
  void counters(const CounterSink& sink) const override;

  uint32_t fctbs() const override { return credit_.fctbs(); }
  uint64_t rate_bps() const { return limiter_.rate_bps(); }

 private:
  GfcLinearMap map_;
  CbfcEgressGate credit_;
  std::shared_ptr<const shaping::RateLimiterProfile> profile_;  // the port's
  shaping::RateLimiter limiter_;
  OwnedGauge rate_gauge_;
  OwnedGauge min_rate_;
};

}  // namespace fcswitch::fc

#pragma once
// Credit-based flow control as InfiniBand does it (IBA vol. 1 §7.9.4; GFC §2.2.2, Fig. 2b),
// in 64-byte blocks with modular counters.
//
// Receiver: ABR counts blocks received at (port, priority) and is set to the sender's FCTBS
// whenever a credit frame brings one (so blocks lost on the way are not lost credits). Every
// period T it advertises FCCL = ABR + free blocks of the ingress buffer.
// Sender: FCTBS counts blocks sent. A packet of b blocks may start only while
// (FCCL − (FCTBS + b)) mod 2^32 lies in the lower half of the space — IBA's
// "CR ≤ 2048 of 4096", with our 32-bit counters. Until the first FCCL arrives it has none.
//
// One frame per period carries both directions of a port: this port's FCTBS as a sender and
// its FCCL as a receiver (wire/credit_frame.h).

#include <array>
#include <cstdint>

#include "core/owned_counter.h"
#include "fc/engine.h"
#include "fc/engine_registry.h"

namespace fcswitch::fc {

struct CbfcParams : EngineParams {
  uint64_t period_ns = 0;  // 0: the time to send 65535 bytes at the link rate (IBA, GFC §5.4)

  CbfcParams resolved(const LinkParams& link) const;
};

// The IBA-recommended feedback period: 65535 bytes at `rate_bps` (52.4 µs at 10 Gb/s).
uint64_t cbfc_default_period_ns(uint64_t rate_bps);

// True when `a` is at or after `b` in modulo-2^32 order (within half the space).
constexpr bool credit_at_or_after(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(a - b) <= 0x8000'0000u;
}

// What a credit-frame generator needs from the sender half of its port: FCTBS, which rides
// in the same frame. CBFC's gate is one; time-based GFC's rate-limited gate will be another.
class CreditSender {
 public:
  virtual ~CreditSender() = default;
  virtual uint32_t fctbs() const = 0;
};

// What each half's counters() reports; time-based GFC reports them too (its credit half).
inline constexpr std::array kCbfcGeneratorCounters = {
    counter("credit_updates_sent", "fcswitch_cbfc_credit_updates_sent_total",
            "Credit updates (FCCL) sent upstream"),
};
inline constexpr std::array kCbfcGateCounters = {
    counter("credit_updates_received", "fcswitch_cbfc_credit_updates_received_total",
            "Credit updates (FCCL) received from downstream"),
    counter("blocks_sent", "fcswitch_cbfc_sent_bytes_total",
            "Bytes sent against credits, in whole 64-byte blocks", CounterUnit::kCreditBlocks),
    gauge("credit_blocks", "fcswitch_cbfc_credit_available_bytes",
          "Credit available to this egress queue (FCCL - FCTBS)", CounterUnit::kCreditBlocks),
};
static_assert(well_formed_counters(kCbfcGeneratorCounters));
static_assert(well_formed_counters(kCbfcGateCounters));

class CbfcEgressGate final : public EgressGate, public CreditSender {
 public:
  // `start_blocks` is FCTBS at link start (0; a test starts near 2^32 to cross the wrap).
  explicit CbfcEgressGate(uint32_t start_blocks = 0);

  void on_message(const ControlMessage& message) override;
  void poll(uint64_t) override {}
  bool polled() const override { return false; }
  uint16_t budget(uint64_t now_ticks, const uint32_t* bytes, uint16_t count) const override;
  void commit(uint64_t now_ticks, const uint32_t* bytes, uint16_t count) override;
  uint64_t next_action_ticks() const override { return kNeverTicks; }
  void counters(const CounterSink& sink) const override;

  uint32_t fctbs() const override { return fctbs_; }
  uint32_t fccl() const { return fccl_; }
  bool has_limit() const { return has_limit_; }
  // Blocks that may still be sent: FCCL − FCTBS (0 before the first FCCL).
  uint32_t credit_blocks() const;

 private:
  uint32_t fctbs_;
  uint32_t fccl_ = 0;
  bool has_limit_ = false;
  OwnedCounter blocks_sent_;  // not wrapped, for reports
  OwnedCounter updates_received_;
  OwnedGauge credit_gauge_;  // credit_blocks(), for readers on other threads
};

class CbfcFeedbackGenerator final : public FeedbackGenerator {
 public:
  // `sender` is the gate of the same (port, priority): its FCTBS rides in the same frame.
  CbfcFeedbackGenerator(const CbfcParams& resolved, const EngineContext& context,
                        const CreditSender& sender);

  void poll(uint64_t now_ticks, const IngressView& in, FeedbackOut& out) override;
  uint64_t next_action_ticks() const override { return next_send_ticks_; }
  // Its input is read when an update is due, not before.
  OccupancyBand quiet_band() const override { return OccupancyBand::any_occupancy(); }
  void counters(const CounterSink& sink) const override;

  // FCCL for this view: ABR + free blocks, the free part capped at half the counter space.
  uint32_t credit_limit(const IngressView& in) const;

 private:
  int priority_;
  uint64_t buffer_bytes_;
  uint64_t period_ticks_;
  const CreditSender& sender_;
  uint64_t next_send_ticks_ = 0;  // the first update goes out at once: the sender starts with none
  OwnedCounter updates_sent_;
};

}  // namespace fcswitch::fc

#include "fc/cbfc_engine.h"

#include <algorithm>

#include "core/units.h"
#include "wire/credit_frame.h"

namespace fcswitch::fc {

namespace {
constexpr uint64_t kIbaPeriodBytes = 65535;  // IBA's recommended update interval, in bytes
constexpr uint32_t kMaxAdvertisedBlocks = 0x7FFF'FFFF;  // below half the 2^32 space
}  // namespace

uint64_t cbfc_default_period_ns(uint64_t rate_bps) {
  return TickRate{}.for_bits(kIbaPeriodBytes * kBitsPerByte, rate_bps);
}

CbfcParams CbfcParams::resolved(const LinkParams& link) const {
  CbfcParams p = *this;
  if (p.period_ns == 0) p.period_ns = cbfc_default_period_ns(link.rate_bps);
  return p;
}

// --- sender ---

CbfcEgressGate::CbfcEgressGate(uint32_t start_blocks) : fctbs_(start_blocks) {}

void CbfcEgressGate::on_message(const ControlMessage& message) {
  if (message.kind != ControlKind::kCreditLimit) return;
  fccl_ = message.value;
  has_limit_ = true;
  updates_received_.increment();
  credit_gauge_.set(credit_blocks());
}

uint16_t CbfcEgressGate::budget(uint64_t, const uint32_t* bytes, uint16_t count) const {
  if (!has_limit_) return 0;
  // Each packet while the credits still cover it after the ones before it.
  uint32_t fctbs = fctbs_;
  uint16_t n = 0;
  for (; n < count; ++n) {
    const auto after = static_cast<uint32_t>(fctbs + wire::credit_blocks(bytes[n]));
    if (!credit_at_or_after(fccl_, after)) break;
    fctbs = after;
  }
  return n;
}

void CbfcEgressGate::commit(uint64_t, const uint32_t* bytes, uint16_t count) {
  uint32_t blocks = 0;
  for (uint16_t i = 0; i < count; ++i) blocks += wire::credit_blocks(bytes[i]);
  fctbs_ += blocks;
  blocks_sent_.add(blocks);
  credit_gauge_.set(credit_blocks());
}

uint32_t CbfcEgressGate::credit_blocks() const {
  if (!has_limit_ || !credit_at_or_after(fccl_, fctbs_)) return 0;
  return fccl_ - fctbs_;
}

void CbfcEgressGate::counters(const CounterSink& sink) const {
  // Other threads read the gauge, not fccl_/fctbs_.
  report_counters(sink, kCbfcGateCounters, updates_received_.read(), blocks_sent_.read(),
                  credit_gauge_.read());
}

// --- receiver ---

CbfcFeedbackGenerator::CbfcFeedbackGenerator(const CbfcParams& p, const EngineContext& context,
                                             const CreditSender& sender)
    : priority_(context.priority),
      buffer_bytes_(context.link.buffer_bytes),
      period_ticks_(std::max<uint64_t>(1, context.ticks.from_ns(p.period_ns))),
      sender_(sender) {}

uint32_t CbfcFeedbackGenerator::credit_limit(const IngressView& in) const {
  // Whole free blocks only: a grant of n blocks never admits more than 64·n bytes.
  const uint64_t free_blocks = in.occupancy_bytes < buffer_bytes_
                                   ? (buffer_bytes_ - in.occupancy_bytes) / wire::kCreditBlockBytes
                                   : 0;
  return in.received_blocks +
         static_cast<uint32_t>(std::min<uint64_t>(free_blocks, kMaxAdvertisedBlocks));
}

void CbfcFeedbackGenerator::poll(uint64_t now, const IngressView& in, FeedbackOut& out) {
  if (now < next_send_ticks_) return;
  out.credit_enable |= static_cast<PriorityMask>(1u << priority_);
  out.credit[priority_] = wire::CreditEntry{sender_.fctbs(), credit_limit(in)};
  updates_sent_.increment();
  // Periodic from now: a late poll shifts the schedule rather than bursting to catch up.
  next_send_ticks_ = now + period_ticks_;
}

void CbfcFeedbackGenerator::counters(const CounterSink& sink) const {
  report_counters(sink, kCbfcGeneratorCounters, updates_sent_.read());
}

// --- configuration ---

namespace {

std::shared_ptr<const EngineParams> parse_cbfc(ParamReader& reader, const LinkParams* link) {
  auto params = std::make_shared<CbfcParams>();
  // 100 ns to 1 s: below, updates would take a large share of the link; above, the sender
  // would sit idle for lack of news.
  if (auto period = reader.duration_ns("period", 100, kNsPerSecond)) params->period_ns = *period;
  if (!link) return params;
  return std::make_shared<CbfcParams>(params->resolved(*link));
}

EngineInstance make_cbfc(const EngineParams& params, const EngineContext& context) {
  auto gate = std::make_unique<CbfcEgressGate>();
  auto generator = std::make_unique<CbfcFeedbackGenerator>(static_cast<const CbfcParams&>(params),
                                                           context, *gate);
  return {std::move(generator), std::move(gate)};
}

}  // namespace

FCSWITCH_REGISTER_ENGINE("cbfc", "InfiniBand credit-based flow control (64-byte blocks)",
                         parse_cbfc, make_cbfc, kCbfcGeneratorCounters, kCbfcGateCounters);

}  // namespace fcswitch::fc

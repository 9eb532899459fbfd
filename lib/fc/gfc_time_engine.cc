#include "fc/gfc_time_engine.h"

#include <array>

#include "fc/gfc_threshold_check.h"
#include "fc/rate_limit_counters.h"
#include "wire/credit_frame.h"

namespace fcswitch::fc {

GfcTimeEgressGate::GfcTimeEgressGate(const GfcLinearMap& map, const EngineContext& context)
    : map_(map), profile_(context.shared_limiter_profile()), limiter_(*profile_) {
  rate_gauge_.set(limiter_.rate_bps());
  min_rate_.set(limiter_.rate_bps());
}

void GfcTimeEgressGate::on_message(const ControlMessage& message) {
  if (message.kind != ControlKind::kCreditLimit) return;
  credit_.on_message(message);
  // GFC §5.2: remaining buffer FCCL − FCTBS, mapped linearly to a rate.
  const uint64_t remaining =
      static_cast<uint64_t>(credit_.credit_blocks()) * wire::kCreditBlockBytes;
  limiter_.set_rate(*profile_, map_.rate_bps(remaining));
  rate_gauge_.set(limiter_.rate_bps());
  if (limiter_.rate_bps() < min_rate_.read()) min_rate_.set(limiter_.rate_bps());
}

void GfcTimeEgressGate::commit(uint64_t now, const uint32_t* bytes, uint16_t count) {
  credit_.commit(now, bytes, count);
  limiter_.commit(*profile_, now, bytes, count);
}

uint64_t GfcTimeEgressGate::next_action_ticks() const {
  // Credits open only with a message; the limiter by itself.
  return limiter_.unlimited(*profile_) ? kNeverTicks : limiter_.next_open_ticks();
}

namespace {
// The gate reports its credit half's counters (CBFC's), then its rate limiter's.
constexpr std::array kGfcTimeRateCounters = {kRateLimitCounter, kRateLimitMinCounter};
constexpr auto kGfcTimeGateCounters = concat_counters(kCbfcGateCounters, kGfcTimeRateCounters);
static_assert(well_formed_counters(kGfcTimeGateCounters));
}  // namespace

void GfcTimeEgressGate::counters(const CounterSink& sink) const {
  credit_.counters(sink);
  report_counters(sink, kGfcTimeRateCounters, rate_gauge_.read(), min_rate_.read());
}

std::string GfcTimeParams::tau_breaks(const LinkParams& link, uint64_t tau_ns) const {
  LinkParams measured = link;
  measured.response_time_ns = tau_ns;
  const GfcLinearMap map(measured, period_ns, b0_bytes);
  if (map.within_theorem()) return {};
  return "B_0 = " + std::to_string(map.b0_bytes()) +
         " bytes breaks Theorem 5.1: " + map.theorem_text();
}

// --- configuration ---

namespace {

std::shared_ptr<const EngineParams> parse_gfc_time(ParamReader& reader, const LinkParams* link) {
  auto params = std::make_shared<GfcTimeParams>();
  // The period as CBFC reads it (cbfc_engine.cc): 100 ns to 1 s.
  if (auto period = reader.duration_ns("period", 100, kNsPerSecond)) params->period_ns = *period;
  const GfcThresholdKeys keys = read_gfc_threshold_keys(reader, "b0");
  params->b0_bytes = keys.bytes;
  params->allow_theorem_violation = keys.allow_theorem_violation;
  if (!link) return params;
  static_cast<CbfcParams&>(*params) = params->CbfcParams::resolved(*link);
  const GfcLinearMap map(*link, params->period_ns, params->b0_bytes);
  const GfcThreshold b0{"b0",
                        "B_0",
                        "(√(τ/T)+1)²·C·T",
                        "Theorem 5.1",
                        params->b0_bytes,
                        map.b0_bytes(),
                        map.bound_bytes(),
                        map.within_theorem(),
                        map.theorem_text()};
  if (!accept_gfc_threshold(reader, b0, link->buffer_bytes, keys.allow_theorem_violation))
    return nullptr;
  params->b0_bytes = map.b0_bytes();
  return params;
}

EngineInstance make_gfc_time(const EngineParams& params, const EngineContext& context) {
  const auto& p = static_cast<const GfcTimeParams&>(params);
  auto gate = std::make_unique<GfcTimeEgressGate>(
      GfcLinearMap(context.link, p.period_ns, p.b0_bytes), context);
  auto generator = std::make_unique<CbfcFeedbackGenerator>(p, context, *gate);
  return {std::move(generator), std::move(gate)};
}

}  // namespace

FCSWITCH_REGISTER_ENGINE("gfc-time",
                         "time-based Gentle Flow Control: CBFC credits, sender rate linear in "
                         "the remaining buffer",
                         parse_gfc_time, make_gfc_time, kCbfcGeneratorCounters,
                         kGfcTimeGateCounters);

}  // namespace fcswitch::fc

#include "fc/gfc_time_engine.h"

#include <fmt/format.h>

#include "wire/credit_frame.h"

namespace fcswitch::fc {

GfcTimeEgressGate::GfcTimeEgressGate(const GfcLinearMap& map, const EngineContext& context)
    : map_(map),
      limiter_(context.link.rate_bps, context.ticks, context.framing,
               context.limiter_catch_up_ticks) {
  rate_gauge_.set(limiter_.rate_bps());
  min_rate_.set(limiter_.rate_bps());
}

void GfcTimeEgressGate::on_message(const ControlMessage& message) {
  if (message.kind != ControlKind::kCreditLimit) return;
  credit_.on_message(message);
  // GFC §5.2: remaining buffer FCCL − FCTBS, mapped linearly to a rate.
  const uint64_t remaining =
      static_cast<uint64_t>(credit_.credit_blocks()) * wire::kCreditBlockBytes;
  limiter_.set_rate(map_.rate_bps(remaining));
  rate_gauge_.set(limiter_.rate_bps());
  if (limiter_.rate_bps() < min_rate_.read()) min_rate_.set(limiter_.rate_bps());
}

void GfcTimeEgressGate::on_dequeue(uint64_t now, uint32_t bytes) {
  credit_.on_dequeue(now, bytes);
  limiter_.on_send(now, bytes);
}

uint64_t GfcTimeEgressGate::next_action_ticks() const {
  // Credits open only with a message; the limiter by itself.
  return limiter_.unlimited() ? kNeverTicks : limiter_.next_open_ticks();
}

void GfcTimeEgressGate::counters(const CounterSink& sink) const {
  credit_.counters(sink);
  sink("rate_bps", rate_gauge_.read());
  sink("rate_min_bps", min_rate_.read());
}

// --- configuration ---

namespace {

std::shared_ptr<const EngineParams> parse_gfc_time(ParamReader& reader, const LinkParams* link) {
  auto params = std::make_shared<GfcTimeParams>();
  constexpr uint64_t kMaxBytes = 1ull << 34;
  // The period as CBFC reads it (cbfc_engine.cc): 100 ns to 1 s.
  if (auto period = reader.duration_ns("period", 100, kNsPerSecond)) params->period_ns = *period;
  if (auto b0 = reader.bytes("b0", 1, kMaxBytes)) params->b0_bytes = *b0;
  if (auto allow = reader.boolean("allow_theorem_violation"))
    params->allow_theorem_violation = *allow;
  if (!link) return params;
  auto resolved = std::make_shared<GfcTimeParams>(*params);
  static_cast<CbfcParams&>(*resolved) = params->CbfcParams::resolved(*link);
  if (params->b0_bytes >= link->buffer_bytes) {
    reader.refuse(
        "b0",
        fmt::format("less than B_m, the lossless_ingress buffer ({} bytes)", link->buffer_bytes),
        fmt::format("{} bytes", params->b0_bytes));
    return nullptr;
  }
  const GfcLinearMap map(*link, resolved->period_ns, params->b0_bytes);
  if (params->b0_bytes == 0 && map.bound_bytes() >= link->buffer_bytes) {
    reader.refuse("b0",
                  fmt::format("a lossless_ingress buffer larger than (√(τ/T)+1)²·C·T = {} bytes "
                              "(no B_0 satisfies GFC Theorem 5.1)",
                              map.bound_bytes()),
                  fmt::format("lossless_ingress = {} bytes", link->buffer_bytes));
    return nullptr;
  }
  if (!map.within_theorem()) {
    const std::string found = fmt::format("B_0 = {} bytes", map.b0_bytes());
    if (!params->allow_theorem_violation) {
      reader.refuse("b0", map.theorem_text(), found);
      return nullptr;
    }
    reader.warn("b0", map.theorem_text(), found);
  }
  resolved->b0_bytes = map.b0_bytes();
  return resolved;
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
                         parse_gfc_time, make_gfc_time);

}  // namespace fcswitch::fc

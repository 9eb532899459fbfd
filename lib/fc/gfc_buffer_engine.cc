#include "fc/gfc_buffer_engine.h"

#include <algorithm>

#include <fmt/format.h>

namespace fcswitch::fc {

// --- receiver ---

GfcBufferFeedbackGenerator::GfcBufferFeedbackGenerator(const GfcStageTable& table,
                                                       const EngineContext& context)
    : table_(table), priority_(context.priority) {}

void GfcBufferFeedbackGenerator::poll(uint64_t, const IngressView& in, FeedbackOut& out) {
  const int stage = table_.stage_of(in.occupancy_bytes);
  if (stage == stage_) return;
  // GFC §4.2: a message only when the queue steps into another stage, up or down.
  stage_ = stage;
  stage_gauge_.set(static_cast<uint64_t>(stage));
  if (static_cast<uint64_t>(stage) > max_stage_.read())
    max_stage_.set(static_cast<uint64_t>(stage));
  out.stage_enable |= static_cast<PriorityMask>(1u << priority_);
  out.stage[priority_] = static_cast<uint16_t>(stage);
  stage_messages_.increment();
}

void GfcBufferFeedbackGenerator::counters(const CounterSink& sink) const {
  sink("stage_messages_sent", stage_messages_.read());
  sink("ingress_stage", stage_gauge_.read());
  sink("ingress_stage_max", max_stage_.read());
}

// --- sender ---

GfcBufferEgressGate::GfcBufferEgressGate(const GfcStageTable& table, const EngineContext& context)
    : table_(table),
      opcode_(context.stage_opcode),
      limiter_(context.link.rate_bps, context.ticks, context.framing,
               context.limiter_catch_up_ticks) {
  rate_gauge_.set(limiter_.rate_bps());
}

void GfcBufferEgressGate::on_message(const ControlMessage& message) {
  if (message.kind != ControlKind::kClassTime || message.opcode != opcode_) {
    foreign_messages_.increment();
    return;
  }
  stage_messages_.increment();
  int stage = static_cast<int>(message.value);
  if (stage > table_.stages()) {
    stages_clamped_.increment();
    stage = table_.stages();
  }
  stage_ = stage;
  limiter_.set_rate(table_.rate_bps(stage));  // GFC §5.1: an array look-up, no arithmetic
  stage_gauge_.set(static_cast<uint64_t>(stage));
  rate_gauge_.set(limiter_.rate_bps());
}

uint64_t GfcBufferEgressGate::next_action_ticks() const {
  return limiter_.unlimited() ? kNeverTicks : limiter_.next_open_ticks();
}

void GfcBufferEgressGate::counters(const CounterSink& sink) const {
  sink("stage_messages_received", stage_messages_.read());
  sink("egress_stage", stage_gauge_.read());
  sink("rate_bps", rate_gauge_.read());
  sink("foreign_messages", foreign_messages_.read());
  sink("stages_clamped", stages_clamped_.read());
}

// --- configuration ---

namespace {

std::shared_ptr<const EngineParams> parse_gfc_buffer(ParamReader& reader, const LinkParams* link) {
  auto params = std::make_shared<GfcBufferParams>();
  constexpr uint64_t kMaxBytes = 1ull << 34;
  if (auto b1 = reader.bytes("b1", 1, kMaxBytes)) params->b1_bytes = *b1;
  if (auto allow = reader.boolean("allow_theorem_violation"))
    params->allow_theorem_violation = *allow;
  if (!link) return params;
  if (params->b1_bytes >= link->buffer_bytes) {
    reader.refuse(
        "b1",
        fmt::format("less than B_m, the lossless_ingress buffer ({} bytes)", link->buffer_bytes),
        fmt::format("{} bytes", params->b1_bytes));
    return nullptr;
  }
  const GfcStageTable table(*link, params->b1_bytes);
  if (params->b1_bytes == 0 && table.two_c_tau_bytes() >= link->buffer_bytes) {
    reader.refuse("b1",
                  fmt::format("a lossless_ingress buffer larger than 2Cτ = {} bytes "
                              "(no B_1 satisfies GFC Theorem 4.1)",
                              table.two_c_tau_bytes()),
                  fmt::format("lossless_ingress = {} bytes", link->buffer_bytes));
    return nullptr;
  }
  if (!table.within_theorem()) {
    const std::string found = fmt::format("B_1 = {} bytes", table.b1_bytes());
    if (!params->allow_theorem_violation) {
      reader.refuse("b1", table.theorem_text(), found);
      return nullptr;
    }
    reader.warn("b1", table.theorem_text(), found);
  }
  auto resolved = std::make_shared<GfcBufferParams>(*params);
  resolved->b1_bytes = table.b1_bytes();
  return resolved;
}

EngineInstance make_gfc_buffer(const EngineParams& params, const EngineContext& context) {
  const GfcStageTable table(context.link, static_cast<const GfcBufferParams&>(params).b1_bytes);
  return {std::make_unique<GfcBufferFeedbackGenerator>(table, context),
          std::make_unique<GfcBufferEgressGate>(table, context)};
}

}  // namespace

FCSWITCH_REGISTER_ENGINE("gfc-buffer",
                         "buffer-based Gentle Flow Control: stage thresholds, sender at C/2^k",
                         parse_gfc_buffer, make_gfc_buffer);

}  // namespace fcswitch::fc

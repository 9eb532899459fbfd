#include "fc/gfc_buffer_engine.h"

#include "fc/gfc_threshold_check.h"

#include <algorithm>
#include <array>

#include "fc/rate_limit_counters.h"

namespace fcswitch::fc {

// --- receiver ---

GfcBufferFeedbackGenerator::GfcBufferFeedbackGenerator(const GfcStageTable& table,
                                                       const EngineContext& context)
    : table_(table), priority_(context.priority) {}

void GfcBufferFeedbackGenerator::poll(uint64_t, const IngressView& in, FeedbackOut& out) {
  const int stage = table_.stage_of(in.occupancy_bytes);
  // GFC §4.2: a message only when the queue steps into another stage, up or down (or, after
  // the link came back, once to say where it is).
  if (stage == stage_ && !resend_) return;
  resend_ = false;
  stage_ = stage;
  stage_gauge_.set(static_cast<uint64_t>(stage));
  if (static_cast<uint64_t>(stage) > max_stage_.read())
    max_stage_.set(static_cast<uint64_t>(stage));
  out.stage_enable |= static_cast<PriorityMask>(1u << priority_);
  out.stage[priority_] = static_cast<uint16_t>(stage);
  stage_messages_.increment();
}

namespace {
constexpr std::array kGfcBufferGeneratorCounters = {
    counter("stage_messages_sent", "fcswitch_gfc_stage_messages_sent_total",
            "GFC stage messages sent upstream"),
    gauge("ingress_stage", "fcswitch_gfc_ingress_stage",
          "GFC stage this port last asked its upstream for (0: line rate)"),
    gauge("ingress_stage_max", "fcswitch_gfc_ingress_stage_max",
          "Highest GFC stage this port has asked for"),
};
static_assert(well_formed_counters(kGfcBufferGeneratorCounters));
}  // namespace

void GfcBufferFeedbackGenerator::counters(const CounterSink& sink) const {
  report_counters(sink, kGfcBufferGeneratorCounters, stage_messages_.read(), stage_gauge_.read(),
                  max_stage_.read());
}

// --- sender ---

GfcBufferEgressGate::GfcBufferEgressGate(const GfcStageTable& table, const EngineContext& context)
    : table_(table),
      opcode_(context.stage_opcode),
      profile_(context.shared_limiter_profile()),
      limiter_(*profile_) {
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
  // GFC §5.1: an array look-up, no arithmetic.
  limiter_.set_rate(*profile_, table_.rate_bps(stage));
  stage_gauge_.set(static_cast<uint64_t>(stage));
  rate_gauge_.set(limiter_.rate_bps());
}

uint64_t GfcBufferEgressGate::next_action_ticks() const {
  return limiter_.unlimited(*profile_) ? kNeverTicks : limiter_.next_open_ticks();
}

namespace {
constexpr std::array kGfcBufferGateCounters = {
    counter("stage_messages_received", "fcswitch_gfc_stage_messages_received_total",
            "GFC stage messages received from downstream"),
    gauge("egress_stage", "fcswitch_gfc_egress_stage",
          "GFC stage this egress queue runs at (set by downstream)"),
    kRateLimitCounter,
    counter("foreign_messages", "fcswitch_fc_foreign_messages_total",
            "Flow-control messages this engine does not speak, ignored"),
    counter("stages_clamped", "fcswitch_gfc_stages_clamped_total",
            "Stage messages above the last stage, taken as the last"),
};
static_assert(well_formed_counters(kGfcBufferGateCounters));
}  // namespace

void GfcBufferEgressGate::counters(const CounterSink& sink) const {
  report_counters(sink, kGfcBufferGateCounters, stage_messages_.read(), stage_gauge_.read(),
                  rate_gauge_.read(), foreign_messages_.read(), stages_clamped_.read());
}

std::string GfcBufferParams::tau_breaks(const LinkParams& link, uint64_t tau_ns) const {
  LinkParams measured = link;
  measured.response_time_ns = tau_ns;
  const GfcStageTable table(measured, b1_bytes);
  if (table.within_theorem()) return {};
  return "B_1 = " + std::to_string(table.b1_bytes()) +
         " bytes breaks Theorem 4.1: " + table.theorem_text();
}

// --- configuration ---

namespace {

std::shared_ptr<const EngineParams> parse_gfc_buffer(ParamReader& reader, const LinkParams* link) {
  const GfcThresholdKeys keys = read_gfc_threshold_keys(reader, "b1");
  auto params = std::make_shared<GfcBufferParams>();
  params->b1_bytes = keys.bytes;
  params->allow_theorem_violation = keys.allow_theorem_violation;
  if (!link) return params;
  const GfcStageTable table(*link, params->b1_bytes);
  const GfcThreshold b1{"b1",
                        "B_1",
                        "2Cτ + (1+c)·F",
                        "Theorem 4.1",
                        params->b1_bytes,
                        table.b1_bytes(),
                        table.two_c_tau_bytes() + table.room_bytes(),
                        table.within_theorem(),
                        table.theorem_text()};
  if (!accept_gfc_threshold(reader, b1, link->buffer_bytes, keys.allow_theorem_violation))
    return nullptr;
  params->b1_bytes = table.b1_bytes();
  return params;
}

EngineInstance make_gfc_buffer(const EngineParams& params, const EngineContext& context) {
  const GfcStageTable table(context.link, static_cast<const GfcBufferParams&>(params).b1_bytes);
  return {std::make_unique<GfcBufferFeedbackGenerator>(table, context),
          std::make_unique<GfcBufferEgressGate>(table, context)};
}

}  // namespace

FCSWITCH_REGISTER_ENGINE("gfc-buffer",
                         "buffer-based Gentle Flow Control: stage thresholds, sender at C/2^k",
                         parse_gfc_buffer, make_gfc_buffer, kGfcBufferGeneratorCounters,
                         kGfcBufferGateCounters);

}  // namespace fcswitch::fc

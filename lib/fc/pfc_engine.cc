#include "fc/pfc_engine.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "core/units.h"
#include "wire/pfc_frame.h"

namespace fcswitch::fc {

namespace {

// Two 1500-byte frames between XON and XOFF, the gap of the GFC testbed (§6.1.1: 800/797 KB).
constexpr uint64_t kDefaultHysteresisBytes = 3000;

std::string fmt_bytes(uint64_t v) {
  return std::to_string(v) + " bytes";
}

}  // namespace

uint64_t pfc_pause_ticks(uint16_t quanta, uint64_t rate_bps, const TickRate& ticks) {
  return ticks.for_bits(static_cast<uint64_t>(quanta) * wire::kPfcQuantumBits, rate_bps);
}

uint64_t bytes_in_flight(const LinkParams& link) {
  const __uint128_t bits = static_cast<__uint128_t>(link.rate_bps) * link.response_time_ns;
  const __uint128_t per_byte = static_cast<__uint128_t>(kNsPerSecond) * kBitsPerByte;
  return static_cast<uint64_t>((bits + per_byte - 1) / per_byte);
}

PfcParams PfcParams::resolved(const LinkParams& link) const {
  PfcParams p = *this;
  const uint64_t headroom = bytes_in_flight(link);
  if (p.xoff_bytes == 0)
    p.xoff_bytes = link.buffer_bytes > headroom ? link.buffer_bytes - headroom : 0;
  if (p.xon_bytes == 0)
    p.xon_bytes =
        p.xoff_bytes > kDefaultHysteresisBytes ? p.xoff_bytes - kDefaultHysteresisBytes : 0;
  return p;
}

std::string PfcParams::tau_breaks(const LinkParams& link, uint64_t tau_ns) const {
  LinkParams measured = link;
  measured.response_time_ns = tau_ns;
  const uint64_t in_flight = bytes_in_flight(measured);
  const uint64_t headroom = link.buffer_bytes > xoff_bytes ? link.buffer_bytes - xoff_bytes : 0;
  if (in_flight <= headroom) return {};
  return "XOFF's headroom lossless_ingress − xoff = " + std::to_string(link.buffer_bytes) + " − " +
         std::to_string(xoff_bytes) + " = " + fmt_bytes(headroom) +
         " is less than C·τ = " + fmt_bytes(in_flight) + " (" +
         std::to_string(link.rate_bps / 1'000'000) + " Mb/s × " + std::to_string(tau_ns) + " ns)";
}

// --- receiver ---

PfcFeedbackGenerator::PfcFeedbackGenerator(const PfcParams& p, const EngineContext& context)
    : priority_(context.priority),
      xoff_bytes_(p.xoff_bytes),
      xon_bytes_(p.xon_bytes),
      pause_quanta_(p.pause_quanta),
      refresh_ticks_(pfc_pause_ticks(p.refresh_quanta, context.link.rate_bps, context.ticks)),
      ticks_(context.ticks) {
  const uint64_t pause = pfc_pause_ticks(p.pause_quanta, context.link.rate_bps, context.ticks);
  const uint64_t response = context.ticks.from_ns(context.link.response_time_ns);
  late_after_ticks_ = pause > response ? pause - response : 0;
}

void PfcFeedbackGenerator::note_pause_gap(uint64_t now) {
  const uint64_t gap = now > last_pause_ticks_ ? now - last_pause_ticks_ : 0;
  if (gap > longest_pause_gap_ticks_.read()) longest_pause_gap_ticks_.set(gap);
  if (gap >= late_after_ticks_) late_pause_frames_.increment();
}

void PfcFeedbackGenerator::request(FeedbackOut& out, uint16_t quanta) const {
  out.class_enable |= static_cast<PriorityMask>(1u << priority_);
  out.class_time[priority_] = quanta;
}

void PfcFeedbackGenerator::poll(uint64_t now, const IngressView& in, FeedbackOut& out) {
  const bool resend = std::exchange(resend_, false);
  if (!xoff_) {
    if (in.occupancy_bytes < xoff_bytes_) {
      if (resend && xon_transitions_.read() > 0) request(out, 0);  // an XON the link lost
      return;
    }
    xoff_ = true;
    xoff_gauge_.set(1);
    xoff_transitions_.increment();
  } else if (in.occupancy_bytes < xon_bytes_) {
    xoff_ = false;
    xoff_gauge_.set(0);
    xon_transitions_.increment();
    next_refresh_ticks_ = kNeverTicks;
    note_pause_gap(now);
    request(out, 0);  // XON: time 0 resumes at once rather than waiting for expiry
    return;
  } else if (now < next_refresh_ticks_ && !resend) {
    return;
  } else {
    refreshes_.increment();
    note_pause_gap(now);
  }
  // XOFF, or its refresh: the upstream's timer is reloaded before it runs out.
  request(out, pause_quanta_);
  last_pause_ticks_ = now;
  next_refresh_ticks_ = now + refresh_ticks_;
}

uint64_t PfcFeedbackGenerator::next_action_ticks() const {
  return resend_ ? 0 : next_refresh_ticks_;
}

namespace {
constexpr std::array kPfcGeneratorCounters = {
    counter("xoff_transitions", "fcswitch_pfc_xoff_transitions_total",
            "Times the ingress occupancy reached XOFF (a pause was asserted)"),
    counter("xon_transitions", "fcswitch_pfc_xon_transitions_total",
            "Times the ingress occupancy fell below XON (the pause was released)"),
    counter("pause_refreshes", "fcswitch_pfc_pause_refreshes_total",
            "Pause frames re-sent before the upstream's timer ran out"),
    gauge("xoff_asserted", "fcswitch_pfc_xoff_asserted",
          "1 while this port holds its upstream paused at this priority"),
    counter("late_pause_frames", "fcswitch_pfc_late_pause_frames_total",
            "Refreshes and XONs sent pause time − response_time or more after the last pause: "
            "the upstream's pause may have run out under XOFF (this switch's CPU was away)"),
    gauge("longest_pause_gap_ns", "fcswitch_pfc_longest_pause_gap_seconds",
          "The longest time from a pause frame to the next refresh or XON",
          CounterUnit::kNanoseconds),
};
static_assert(well_formed_counters(kPfcGeneratorCounters));
}  // namespace

void PfcFeedbackGenerator::counters(const CounterSink& sink) const {
  report_counters(sink, kPfcGeneratorCounters, xoff_transitions_.read(), xon_transitions_.read(),
                  refreshes_.read(), xoff_gauge_.read(), late_pause_frames_.read(),
                  ticks_.to_ns(longest_pause_gap_ticks_.read()));
}

// --- sender ---

PfcEgressGate::PfcEgressGate(uint64_t rate_bps, const TickRate& ticks)
    : rate_bps_(rate_bps), ticks_(ticks) {}

void PfcEgressGate::settle(uint64_t now) {
  const uint64_t from = std::max(accounted_to_ticks_, pause_start_ticks_);
  const uint64_t to = std::min(now, paused_until_ticks_);
  if (to > from) paused_ticks_.add(to - from);
  accounted_to_ticks_ = std::max(accounted_to_ticks_, now);
  if (expiry_pending_ && now >= paused_until_ticks_) {
    expiry_pending_ = false;
    expiries_.increment();  // the pause ran out: no refresh and no XON came in time
    // No poll between the pause's end and now: TX did not run in the lapse (its thread was
    // away, or it had nothing to send), so nothing left because of it.
    if (polled_to_ticks_ < paused_until_ticks_) unseen_expiries_.increment();
  }
}

void PfcEgressGate::on_message(const ControlMessage& message) {
  // A GFC stage frame with its own opcode is not a pause.
  if (message.kind != ControlKind::kClassTime || message.opcode != wire::kPfcOpcode) return;
  const uint64_t at = message.rx_ticks;
  // A pause that ran out before this frame came expired, however late the last poll was.
  settle(at);
  if (message.value == 0) {
    resumes_received_.increment();
    paused_until_ticks_ = std::min(paused_until_ticks_, at);
    expiry_pending_ = false;
    return;
  }
  pauses_received_.increment();
  // 802.1Qbb: the timer is reloaded with the new time, whatever was left of the old one.
  if (!paused(at)) pause_start_ticks_ = at;
  paused_until_ticks_ =
      at + pfc_pause_ticks(static_cast<uint16_t>(message.value), rate_bps_, ticks_);
  expiry_pending_ = true;
}

void PfcEgressGate::poll(uint64_t now) {
  polled_to_ticks_ = std::max(polled_to_ticks_, now);
  settle(now);
}

uint64_t PfcEgressGate::next_action_ticks() const {
  return expiry_pending_ ? paused_until_ticks_ : kNeverTicks;
}

namespace {
constexpr std::array kPfcGateCounters = {
    counter("pause_frames_received", "fcswitch_pause_frames_received_total",
            "PFC frames received with a non-zero time for this priority"),
    counter("resume_frames_received", "fcswitch_resume_frames_received_total",
            "PFC frames received with time 0 (XON) for this priority"),
    counter("pause_expiries", "fcswitch_pfc_pause_expiries_total",
            "Pauses that ended by their timer rather than by an XON"),
    counter("paused_ns", "fcswitch_paused_seconds_total",
            "Time this egress queue was paused by its downstream neighbour",
            CounterUnit::kNanoseconds),
    counter("pause_expiries_unseen", "fcswitch_pfc_pause_expiries_unseen_total",
            "Of the pause expiries, those no TX poll saw before the next frame came: nothing "
            "could leave in the lapse (TX's thread was away, or it had nothing to send)"),
};
static_assert(well_formed_counters(kPfcGateCounters));
}  // namespace

void PfcEgressGate::counters(const CounterSink& sink) const {
  report_counters(sink, kPfcGateCounters, pauses_received_.read(), resumes_received_.read(),
                  expiries_.read(), ticks_.to_ns(paused_ticks_.read()), unseen_expiries_.read());
}

// --- configuration ---

namespace {

std::shared_ptr<const EngineParams> parse_pfc(ParamReader& reader, const LinkParams* link) {
  auto params = std::make_shared<PfcParams>();
  bool ok = true;
  auto take = [](auto value, auto& field) {
    if (value) field = static_cast<std::remove_reference_t<decltype(field)>>(*value);
    // A present but wrong value was reported by the reader.
    return value.has_value();
  };
  constexpr uint64_t kMaxBytes = 1ull << 34;
  const bool has_xoff = take(reader.bytes("xoff", 1, kMaxBytes), params->xoff_bytes);
  const bool has_xon = take(reader.bytes("xon", 0, kMaxBytes), params->xon_bytes);
  const bool has_pause = take(reader.integer("pause_quanta", 1, 0xFFFF), params->pause_quanta);
  const bool has_refresh =
      take(reader.integer("refresh_quanta", 1, 0xFFFF), params->refresh_quanta);
  if (!has_refresh && has_pause) params->refresh_quanta = params->pause_quanta / 2;
  if (has_xon && has_xoff && params->xon_bytes >= params->xoff_bytes) {
    reader.refuse("xon", "less than xoff (" + fmt_bytes(params->xoff_bytes) + ")",
                  fmt_bytes(params->xon_bytes));
    ok = false;
  }
  if (params->refresh_quanta >= params->pause_quanta) {
    reader.refuse("refresh_quanta",
                  "less than pause_quanta (" + std::to_string(params->pause_quanta) + ")",
                  std::to_string(params->refresh_quanta));
    ok = false;
  }
  if (!link || !ok) return ok ? params : nullptr;

  const PfcParams p = params->resolved(*link);
  const uint64_t in_flight = bytes_in_flight(*link);
  const std::string link_text = std::to_string(link->rate_bps / 1'000'000) + " Mb/s × " +
                                std::to_string(link->response_time_ns) + " ns response_time";
  if (in_flight >= link->buffer_bytes) {
    reader.refuse("xoff",
                  "a lossless_ingress buffer larger than C·τ = " + fmt_bytes(in_flight) + " (" +
                      link_text + ")",
                  "lossless_ingress = " + fmt_bytes(link->buffer_bytes));
    return nullptr;
  }
  const std::string headroom_rule =
      "at most lossless_ingress − C·τ = " + std::to_string(link->buffer_bytes) + " − " +
      std::to_string(in_flight) + " = " + fmt_bytes(link->buffer_bytes - in_flight) + " (" +
      link_text + ")";
  if (p.xoff_bytes + in_flight > link->buffer_bytes) {
    reader.refuse("xoff", headroom_rule, fmt_bytes(p.xoff_bytes));
    return nullptr;
  }
  if (p.xon_bytes >= p.xoff_bytes) {
    reader.refuse("xon", "less than xoff (" + fmt_bytes(p.xoff_bytes) + ")",
                  fmt_bytes(p.xon_bytes));
    return nullptr;
  }
  // The refresh must reach the upstream before its timer runs out.
  const TickRate ns;
  const uint64_t refresh_ns = pfc_pause_ticks(p.refresh_quanta, link->rate_bps, ns);
  const uint64_t pause_ns = pfc_pause_ticks(p.pause_quanta, link->rate_bps, ns);
  if (refresh_ns + link->response_time_ns >= pause_ns) {
    reader.refuse("refresh_quanta",
                  "a refresh that lands before the pause ends: refresh + response_time < pause (" +
                      std::to_string(pause_ns) + " ns)",
                  std::to_string(p.refresh_quanta) + " quanta = " + std::to_string(refresh_ns) +
                      " ns + " + std::to_string(link->response_time_ns) + " ns");
    return nullptr;
  }
  return std::make_shared<PfcParams>(p);
}

EngineInstance make_pfc(const EngineParams& params, const EngineContext& context) {
  const auto& p = static_cast<const PfcParams&>(params);
  return {std::make_unique<PfcFeedbackGenerator>(p, context),
          std::make_unique<PfcEgressGate>(context.link.rate_bps, context.ticks)};
}

}  // namespace

FCSWITCH_REGISTER_ENGINE("pfc", "IEEE 802.1Qbb priority-based flow control (XOFF/XON)", parse_pfc,
                         make_pfc, kPfcGeneratorCounters, kPfcGateCounters);

}  // namespace fcswitch::fc

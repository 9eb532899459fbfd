#include "scenario/flow_transport.h"

#include <fmt/format.h>

#include "config/config_problems.h"
#include "wire/flow_stamp.h"

namespace fcswitch::lab {

namespace {
using config::TableReader;
constexpr uint64_t kMaxRate = 400'000'000'000;  // bit/s: the lab's fastest link
}  // namespace

TransportSettings read_transport_settings(config::TableReader& root, uint64_t max_duration_ns) {
  TransportSettings t;
  const toml::table* table = root.table("transport");
  if (!table) return t;
  config::ConfigProblems& problems = root.problems();
  TableReader r(*table, root.key_path("transport"), problems);
  if (auto d = r.integer("ack_dscp", 0, 63)) t.ack_dscp = static_cast<int>(*d);
  if (auto d = r.integer("cnp_dscp", 0, 63)) t.cnp_dscp = static_cast<int>(*d);
  if (const toml::table* w = r.table("window")) {
    TableReader wr(*w, "transport.window", problems);
    transport::WindowParams& p = t.window;
    if (auto b = wr.bytes("window", 60, 1ull << 40)) p.window_bytes = *b;
    if (auto d = wr.duration_ns("rto", 1, max_duration_ns)) p.rto_ns = *d;
    if (auto b = wr.boolean("retransmit")) p.retransmit = *b;
    if (auto b = wr.boolean("reno")) p.reno = *b;
    if (auto n = wr.integer("dupacks", 1, 1000)) p.dupack_threshold = static_cast<uint32_t>(*n);
    if (auto n = wr.integer("initial_cwnd", 1, 1'000'000))
      p.initial_cwnd_packets = static_cast<uint64_t>(*n);
    if (auto n = wr.integer("initial_ssthresh", 2, INT64_MAX))
      p.initial_ssthresh_packets = static_cast<uint64_t>(*n);
    wr.reject_unknown_keys();
  }
  if (const toml::table* d = r.table("dcqcn")) {
    TableReader dr(*d, "transport.dcqcn", problems);
    transport::DcqcnParams& p = t.dcqcn;
    if (auto g = dr.number("g", 1e-9, 1)) p.g = *g;
    if (auto a = dr.number("alpha", 0, 1)) p.initial_alpha = *a;
    if (auto k = dr.duration_ns("alpha_timer", 1, max_duration_ns)) p.alpha_timer_ns = *k;
    if (auto k = dr.duration_ns("increase_timer", 1, max_duration_ns)) p.increase_timer_ns = *k;
    if (auto b = dr.bytes("byte_counter", 1, 1ull << 50)) p.byte_counter_bytes = *b;
    if (auto f = dr.integer("fast_recovery", 1, 1000))
      p.fast_recovery_steps = static_cast<uint32_t>(*f);
    if (auto r_ai = dr.rate_bps("additive_increase", 1, kMaxRate)) p.additive_increase_bps = *r_ai;
    if (auto r_hai = dr.rate_bps("hyper_increase", 1, kMaxRate)) p.hyper_increase_bps = *r_hai;
    if (auto m = dr.rate_bps("min_rate", 1, kMaxRate)) p.min_rate_bps = *m;
    if (auto n = dr.duration_ns("cnp_interval", 1, max_duration_ns)) p.cnp_interval_ns = *n;
    if (auto w = dr.bytes("window", 0, 1ull << 40)) t.dcqcn_window_bytes = *w;
    dr.reject_unknown_keys();
  }
  if (const toml::table* m = r.table("timely")) {
    TableReader tr(*m, "transport.timely", problems);
    transport::TimelyParams& p = t.timely;
    if (auto a = tr.number("alpha", 1e-9, 1)) p.ewma_alpha = *a;
    if (auto b = tr.number("beta", 1e-9, 1)) p.beta = *b;
    if (auto d = tr.rate_bps("additive_increase", 1, kMaxRate)) p.additive_increase_bps = *d;
    if (auto l = tr.duration_ns("t_low", 0, max_duration_ns)) p.t_low_ns = *l;
    if (auto h = tr.duration_ns("t_high", 1, max_duration_ns)) p.t_high_ns = *h;
    if (auto m_rtt = tr.duration_ns("min_rtt", 1, max_duration_ns)) p.min_rtt_ns = *m_rtt;
    if (auto n = tr.integer("hai", 1, 1000)) p.hai_threshold = static_cast<uint32_t>(*n);
    if (auto m_rate = tr.rate_bps("min_rate", 1, kMaxRate)) p.min_rate_bps = *m_rate;
    if (auto sc = tr.boolean("scale_by_sample_interval")) p.scale_by_sample_interval = *sc;
    if (auto w = tr.bytes("window", 0, 1ull << 40)) t.timely_window_bytes = *w;
    if (p.t_low_ns >= p.t_high_ns)
      tr.refuse("t_low", fmt::format("T_low below T_high ({} ns)", p.t_high_ns),
                fmt::format("{} ns", p.t_low_ns));
    tr.reject_unknown_keys();
  }
  r.reject_unknown_keys();
  return t;
}

std::optional<std::string> transport_problem(const TransportSettings& settings, FlowTransport t,
                                             uint32_t frame_bytes) {
  if (t == FlowTransport::kTimely && frame_bytes < wire::kTimedFrameMinBytes)
    return fmt::format("frames of at least {} bytes for timely (their send time), not {}",
                       wire::kTimedFrameMinBytes, frame_bytes);
  const uint64_t window = settings.window_bytes(t);
  if (!window || window >= frame_bytes) return std::nullopt;
  return fmt::format("a window ([transport.{}] window, {} bytes) of at least one frame ({} bytes)",
                     transport_name(t), window, frame_bytes);
}

}  // namespace fcswitch::lab

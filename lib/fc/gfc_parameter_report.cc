#include "fc/gfc_parameter_report.h"

#include <fmt/format.h>

#include "fc/cbfc_engine.h"
#include "fc/gfc_linear_map.h"
#include "fc/gfc_stage_table.h"

namespace fcswitch::fc {

namespace {

std::string rate_text(uint64_t bps) {
  if (bps >= 1'000'000'000) return fmt::format("{:.4g} Gb/s", static_cast<double>(bps) / 1e9);
  if (bps >= 1'000'000) return fmt::format("{:.4g} Mb/s", static_cast<double>(bps) / 1e6);
  return fmt::format("{:.4g} kb/s", static_cast<double>(bps) / 1e3);
}

const char* verdict(bool holds) {
  return holds ? "holds" : "VIOLATED";
}

}  // namespace

GfcParameterReport gfc_parameter_report(const LinkParams& link, uint64_t b1_bytes,
                                        uint64_t period_ns, uint64_t b0_bytes) {
  GfcParameterReport report;
  std::string& out = report.text;
  out += fmt::format("link: C = {}, B_m = {} bytes, τ = {} ns\n\n", rate_text(link.rate_bps),
                     link.buffer_bytes, link.response_time_ns);

  out += "buffer-based GFC (gfc-buffer; GFC §4.2, Eqs. 4–5)\n";
  const uint64_t two_c_tau = gfc_two_c_tau_bytes(link);
  const uint64_t room = link.room_bytes();
  if (two_c_tau + room >= link.buffer_bytes || b1_bytes >= link.buffer_bytes) {
    out += fmt::format(
        "  no stage table: 2Cτ = {} bytes, room = {} bytes, B_1 = {} bytes, B_m = {} bytes\n",
        two_c_tau, room, b1_bytes, link.buffer_bytes);
    report.buffer_within_theorem = false;
  } else {
    const GfcStageTable table(link, b1_bytes);
    report.buffer_within_theorem = table.within_theorem();
    out += fmt::format(
        "  room below B_m: (1+c)·F = (1 + {}) × {} = {} bytes (a frame of the largest size F and "
        "c committed past TX's gate)\n  B_N = {} ≤ B_m − room = {} bytes\n",
        link.committed_frames, link.max_frame_bytes, table.room_bytes(),
        table.threshold_bytes(table.stages()), table.top_bytes());
    out += fmt::format("  Theorem 4.1 via Eq. 5: {} — B_1 = {}: {}\n", table.theorem_text(),
                       table.b1_bytes(), verdict(table.within_theorem()));
    out += fmt::format(
        "  N = {} stages (the first with B_N − B_(N−1) ≤ 8 bits); R_k = C/2^k (Eq. 4)\n",
        table.stages());
    out += "  stage  from_bytes      rate\n";
    out += fmt::format("  {:>5}  {:>10}  {:>12}\n", 0, 0, rate_text(table.rate_bps(0)));
    for (int k = 1; k <= table.stages(); ++k)
      out += fmt::format("  {:>5}  {:>10}  {:>12}\n", k, table.threshold_bytes(k),
                         rate_text(table.rate_bps(k)));
  }

  out += "\ntime-based GFC (gfc-time; GFC §5.2, Theorem 5.1)\n";
  const uint64_t period = period_ns ? period_ns : cbfc_default_period_ns(link.rate_bps);
  const uint64_t bound = gfc_time_bound_bytes(link, period);
  out += fmt::format("  T = {} ns{}; (√(τ/T)+1)²·C·T = {} bytes\n", period,
                     period_ns ? "" : " (65535 bytes at C, IBA)", bound);
  if (bound >= link.buffer_bytes || b0_bytes >= link.buffer_bytes) {
    out += fmt::format("  no linear map: B_0 = {} bytes, B_m = {} bytes\n", b0_bytes,
                       link.buffer_bytes);
    report.time_within_theorem = false;
  } else {
    const GfcLinearMap map(link, period, b0_bytes);
    report.time_within_theorem = map.within_theorem();
    out += fmt::format("  {} — B_0 = {}: {}\n", map.theorem_text(), map.b0_bytes(),
                       verdict(map.within_theorem()));
    out += fmt::format("  rate = C·min(1, (FCCL − FCTBS)·64 / {} bytes)\n",
                       link.buffer_bytes - map.b0_bytes());
    out += "  steady queue at a share of C: ";
    for (int share : {1, 2, 4, 8})
      out += fmt::format("{}: {} bytes{}", share == 1 ? "C" : fmt::format("C/{}", share),
                         map.steady_queue_bytes(link.rate_bps / share), share == 8 ? "\n" : ", ");
  }
  return report;
}

}  // namespace fcswitch::fc

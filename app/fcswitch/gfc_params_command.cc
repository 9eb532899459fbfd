#include "gfc_params_command.h"

#include <charconv>
#include <cstdint>
#include <iostream>
#include <optional>

#include "config/quantity.h"
#include "core/units.h"
#include "fc/gfc_parameter_report.h"
#include "fc/response_time.h"

namespace fcswitch::app {

CLI::App* add_gfc_params_command(CLI::App& app, GfcParamsOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "gfc-params", "print GFC's derived parameters for a link (stages, rates, theorem bounds)");
  cmd->add_option("--rate", o.rate, "link rate C (default 10Gbps)");
  cmd->add_option("--buffer", o.buffer, "lossless ingress buffer B_m (default 1MB)");
  cmd->add_option("--response-time", o.response_time,
                  "tau; default GFC Eq. 6 with c committed frames: 2 c MTU/C + 2 t_w + t_r");
  cmd->add_option("--mtu", o.mtu, "MTU for Eq. 6 (default 1500; InfiniBand 4000)");
  cmd->add_option("--wire-delay", o.wire_delay, "t_w for Eq. 6 (default 1us)");
  cmd->add_option("--processing", o.processing, "t_r for Eq. 6 (default 3us)");
  cmd->add_option("--committed-frames", o.committed_frames,
                  "c: frames TX may have committed past its gate, the one on the wire included "
                  "(default 33: a port's tx_burst 32 + 1; GFC Eq. 6 counts 1)");
  cmd->add_option("--max-frame", o.max_frame,
                  "F: the largest frame, in bytes (default MTU + 18: Ethernet header and tag)");
  cmd->add_option("--b1", o.b1, "buffer-based B_1 (default B_m - 2 C tau - (1 + c) F)");
  cmd->add_option("--period", o.period, "time-based T (default 65535 bytes at C)");
  cmd->add_option("--b0", o.b0, "time-based B_0 (default the Theorem 5.1 bound)");
  return cmd;
}

namespace {

// A whole number (the caller refuses 0).
std::optional<uint64_t> parse_count(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A quantity option, or an error naming it. Empty text is `fallback`.
std::optional<uint64_t> quantity(const std::string& flag, const std::string& text,
                                 std::optional<uint64_t> (*parse)(std::string_view),
                                 uint64_t fallback, const char* expected) {
  if (text.empty()) return fallback;
  if (auto v = parse(text)) return v;
  std::cerr << "gfc-params: " << flag << ": expected " << expected << ", found \"" << text
            << "\"\n";
  return std::nullopt;
}

}  // namespace

int run_gfc_params(const GfcParamsOptions& o) {
  using config::parse_bytes;
  using config::parse_duration_ns;
  using config::parse_rate_bps;
  const auto rate = quantity("--rate", o.rate, parse_rate_bps, 0, "a rate like 10Gbps");
  const auto buffer = quantity("--buffer", o.buffer, parse_bytes, 0, "a size like 1MB");
  const auto mtu = quantity("--mtu", o.mtu, parse_bytes, 0, "a size in bytes");
  const auto wire = quantity("--wire-delay", o.wire_delay, parse_duration_ns, 0, "a duration");
  const auto processing =
      quantity("--processing", o.processing, parse_duration_ns, 0, "a duration");
  const auto b1 = quantity("--b1", o.b1, parse_bytes, 0, "a size like 750KB");
  const auto period = quantity("--period", o.period, parse_duration_ns, 0, "a duration");
  const auto b0 = quantity("--b0", o.b0, parse_bytes, 0, "a size like 492KB");
  const auto committed =
      quantity("--committed-frames", o.committed_frames, parse_count, 0, "a number of frames");
  if (!rate || !buffer || !mtu || !wire || !processing || !b1 || !period || !b0 || !committed)
    return 2;
  const auto max_frame = quantity("--max-frame", o.max_frame, parse_bytes,
                                  *mtu + kEthernetHeaderBytes + kVlanTagBytes, "a size in bytes");
  if (!max_frame) return 2;
  // c at most 4096 (a TX ring's depth), F at most 64 KB: (1 + c)·F stays far from 2^64.
  if (*rate == 0 || *buffer == 0 || *committed == 0 || *committed > 4096 || *max_frame == 0 ||
      *max_frame > 65536) {
    std::cerr << "gfc-params: --rate, --buffer, --committed-frames and --max-frame must be above "
                 "0, --committed-frames at most 4096 and --max-frame at most 65536\n";
    return 2;
  }
  const auto tau = quantity("--response-time", o.response_time, parse_duration_ns,
                            fc::eq6_response_time_ns(*rate, *mtu, *wire, *processing, *committed),
                            "a duration like 90us");
  if (!tau) return 2;
  const fc::LinkParams link{*rate, *tau, *buffer, static_cast<uint32_t>(*max_frame),
                            static_cast<uint32_t>(*committed)};
  const fc::GfcParameterReport report = fc::gfc_parameter_report(link, *b1, *period, *b0);
  std::cout << report.text;
  return report.buffer_within_theorem && report.time_within_theorem ? 0 : 1;
}

}  // namespace fcswitch::app

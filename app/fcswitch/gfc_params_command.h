#pragma once
// `fcswitch gfc-params`: prints the GFC parameters derived for one link (GFC §5.4).

#include <CLI/CLI.hpp>

#include <string>

namespace fcswitch::app {

struct GfcParamsOptions {
  std::string rate = "10Gbps";
  std::string buffer = "1MB";
  std::string response_time;  // empty: GFC Eq. 6 from the MTU, wire and processing times
  std::string mtu = "1500";
  std::string wire_delay = "1us";
  std::string processing = "3us";
  // Frames TX may have committed past its gate, unsent (one TX commit and the one on the
  // wire; a port's tx_burst + 1), and the largest frame: the room kept below B_m, and the
  // frames τ's default counts at each end.
  std::string committed_frames = "33";
  std::string max_frame;       // empty: the MTU + Ethernet header + VLAN tag
  std::string b1, period, b0;  // empty: the engines' defaults
};

CLI::App* add_gfc_params_command(CLI::App& app, GfcParamsOptions& options);
// Exit code: 0 when both theorems' conditions hold, 1 when one does not, 2 on bad input.
int run_gfc_params(const GfcParamsOptions& options);

}  // namespace fcswitch::app

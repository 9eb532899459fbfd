#pragma once
// `fcswitch selftest`: does a flow-control frame sent out of one port reach software on
// another? On an 82599 the MAC may act on 802.1Qbb frames itself or drop them unless
// configured (DPF/PMCF; DPDK's mac_ctrl_frame_fwd), so this is checked on the card: cable
// two ports together (or through the testbed's links), run the selftest, read the table.
// Each probe is sent several times and must arrive byte for byte.

#include <chrono>
#include <string>
#include <vector>

#include "config/switch_config.h"

namespace fcswitch {

struct SelftestProbe {
  std::string name;
  int sent = 0;
  int received = 0;  // arrived at `to` with every byte as sent
  bool required = true;
};

struct SelftestResult {
  std::vector<SelftestProbe> probes;
  int other_frames = 0;  // anything else that arrived (the host's own chatter)
  bool passed() const;
  std::string table() const;
};

// Ports by index into config.ports. Throws std::runtime_error when a port cannot start.
SelftestResult run_control_path_selftest(const config::SwitchConfig& config, int from, int to,
                                         std::chrono::milliseconds timeout);

}  // namespace fcswitch

#pragma once
// Pyrrha's congestion-root flow control (Pyrrha §4), the numbers a switch's congestion-root
// table is built from. Thresholds are bytes here; the paper states them in one-hop BDPs
// (K_pause = 2, K_resume = 1 in its evaluation, NOTES.md), and `one_hop_bdp_bytes` converts.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wire/mac_address.h"

namespace fcswitch::config {

struct PyrrhaParams {
  // An output queue (self-nomination) or a per-(root, ingress) byte count above this sends
  // PAUSE upstream (Pyrrha §4.1, §4.4); below k_resume_bytes, RESUME. K_resume < K_pause.
  uint64_t k_pause_bytes = 0;
  uint64_t k_resume_bytes = 0;
  // Isolation queues per egress port; past this, roots hash onto the ones in use (Pyrrha §4.5:
  // "similar to BFC"). The paper's Fig. 7 sees 6-20 in use; its switches have about 100.
  uint16_t max_isolation_queues = 100;
  // Congestion roots one switch remembers at once (its table is sized for them at start).
  uint32_t max_roots = 1024;
};

// One hop of a packet's onward path as a config gives it: the switch it reaches (its
// switch_id) and the port it leaves that switch by (its index in that switch's [[ports]]),
// which is how Pyrrha names a congestion root (Pyrrha §4.1, pyrrha/root_id.h).
struct PyrrhaHop {
  uint32_t switch_id = 0;
  uint16_t port = 0;
};

// The most hops past this switch a path may list: a fat-tree's longest path has 4 switches
// past the first; FWD keeps this many per packet (switch/fwd/pyrrha_path_oracle.h).
inline constexpr size_t kMaxPyrrhaPathHops = 7;

// fcswitch's onward-path table ([[pyrrha.paths]]), Pyrrha §4.2 on a testbed: a packet to
// `dst` that leaves this switch by port `egress` then crosses `hops`, near to far. It holds
// where the downstream switches' routes are fixed (a leaf-spine: a core reaches a host through
// one ToR); the lab predicts the paths from its own routes instead.
struct PyrrhaPath {
  int egress = 0;
  wire::MacAddress dst;
  std::vector<PyrrhaHop> hops;
};

// [pyrrha] network and node: the switch is `node` of the network a lab scenario describes
// (`file`, resolved against the config's folder), and predicts onward paths from that
// network's routes and ECMP seeds as the lab's switches do (lab/pyrrha_network.h), ECMP past
// the first hop included. The places ("file:line:column") are for messages.
struct PyrrhaNetwork {
  std::string file;
  std::string node;
  std::string file_place;
  std::string node_place;
};

// [pyrrha] of a switch (config/pyrrha_config.h): Pyrrha on one priority of every port, in
// place of PFC there. The table's thresholds are bytes: `k_pause_bdp`/`k_resume_bdp` are
// turned into bytes with the largest one-hop BDP of the switch's ports when the config is read.
struct PyrrhaSettings {
  int priority = 0;  // the class (and egress queue) Pyrrha controls
  // Root ids name `switch_id:port` (Pyrrha §4.1); distinct per switch of a network. The lab
  // numbers its switches itself (the topology's order).
  uint32_t switch_id = 0;
  PyrrhaParams table;
  // As configured, for the log: thresholds in one-hop BDPs (0: given in bytes), and the BDP.
  double k_pause_bdp = 0;
  double k_resume_bdp = 0;
  uint64_t one_hop_bdp_bytes = 0;
  // FWD holds the OQ and IQs itself and moves their heads to the egress ring while that holds
  // less than this: the ring and TX's head are the last stage, which the OQ's length
  // (self-nomination) does not see, so it is kept short — a few frames.
  uint64_t stage_bytes = 4096;
  // fcswitch's own path oracle (node/config_path_oracle.h): the paths past this switch and
  // the ports that face hosts (hosts send no DEALLOC: the table's leaf rule). The lab leaves
  // both empty and predicts from its routes.
  std::vector<PyrrhaPath> paths;
  std::vector<int> host_ports;
  // Or the network those come from (fcswitch only: the lab predicts from its own routes).
  std::optional<PyrrhaNetwork> network;
};

// One-hop BDP as the authors' ns-3 code computes it: the egress rate times twice the
// propagation delay of the link towards the upstream (switch-mmu.cc, CheckRootPause) plus the
// switch's own reaction time (issue 20) — the port's response time τ — in bytes, rounded up.
// 128 bits: a rate (< 2^39 b/s) times a response time (< 2^36 ns) does not fit in 64.
inline constexpr uint64_t one_hop_bdp_bytes(uint64_t rate_bps, uint64_t response_time_ns) {
  constexpr unsigned __int128 kBitNsPerByte = 8ull * 1'000'000'000ull;
  const unsigned __int128 bit_ns = static_cast<unsigned __int128>(rate_bps) * response_time_ns;
  return static_cast<uint64_t>((bit_ns + kBitNsPerByte - 1) / kBitNsPerByte);
}

// What is wrong with the parameters, or nullptr. Hysteresis needs K_resume < K_pause (STYLE.md:
// two thresholds against flapping); a switch with no isolation queue cannot isolate anything.
inline const char* pyrrha_params_problem(const PyrrhaParams& p) {
  if (p.k_pause_bytes == 0) return "k_pause_bytes must be > 0";
  if (p.k_resume_bytes >= p.k_pause_bytes) return "k_resume_bytes must be < k_pause_bytes";
  if (p.max_isolation_queues == 0) return "max_isolation_queues must be > 0";
  if (p.max_roots == 0) return "max_roots must be > 0";
  return nullptr;
}

}  // namespace fcswitch::config

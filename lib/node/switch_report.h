#pragma once
// The switch's counters at the end of a run: a table for people, JSON for scripts and tests.

#include <string>

#include "node/stall_watch.h"
#include "node/switch_node.h"

namespace fcswitch {

struct ShutdownCheck {
  uint64_t mempool_size = 0;
  uint64_t mempool_in_use = 0;  // after the ports are closed: anything here leaked
  bool drained = false;         // everything left before the drain deadline
  double run_seconds = 0;       // from the lcores' start to the stop of RX
  // node/stall_watch.h, when the control loop watched: the stall still going on when the stop
  // came (0: none), the longest one, and the queues that spent the last stall at a closed gate.
  uint64_t stalled_at_stop_ns = 0;
  uint64_t longest_stall_ns = 0;
  std::vector<BlockedQueue> blocked_at_stop;
  // Per port, times its link went down (dpdk::LinkWatch::downs); empty where none watched.
  std::vector<uint64_t> link_downs;
};

std::string report_text(const SwitchNode& node, const ShutdownCheck& check);
std::string report_json(const SwitchNode& node, const ShutdownCheck& check);
// One line, drops by reason over all ports, only reasons with a count ("" when none).
std::string drop_summary(const SwitchNode& node);

}  // namespace fcswitch

#pragma once
// The lab's deadlock detector. A queue — (switch, port, lossless priority) — is blocked when
// it holds packets, its gate has held it closed (downstream feedback: a pause, no credits),
// and it has sent nothing for DeadlockSettings::blocked_for. A blocked queue waits for the
// ingress (port, priority) of its downstream neighbour, and so for every queue of that
// neighbour holding packets that arrived there; among blocked queues those waits are the
// edges of a wait-for graph. A cycle in it is a deadlock: reported with the queues in wait
// order ("S1:cw:prio3 → S2:cw:prio3 → …") and when it formed — when the last of them sent
// its last packet. A paused-but-moving network has no queue that stays blocked, so no cycle.
//
// check() reads only counters the switches publish (packets sent, blocked time, queue depths
// by ingress), at the lab's check interval.

#include <cstdint>
#include <string>
#include <vector>

#include "core/tick_rate.h"
#include "node/switch_node.h"
#include "results/deadlock_verdict.h"
#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

class DeadlockDetector {
 public:
  // `switches[i]`: the SwitchNode of scenario node i, null for hosts.
  DeadlockDetector(const LabScenario& scenario, const std::vector<const SwitchNode*>& switches,
                   const TickRate& ticks);

  // Once per check interval. The first cycle found is kept.
  void check(uint64_t now_ticks);
  const DeadlockVerdict& verdict() const { return verdict_; }

 private:
  struct Watched {
    int node, port, priority;
    PortRef downstream;
    std::string name;
    uint64_t packets = 0;
    uint64_t blocked_ns = 0;
    uint64_t last_progress_ticks = 0;
    bool blocked = false;
  };

  std::vector<const SwitchNode*> switches_;
  TickRate ticks_;
  uint64_t blocked_for_ticks_;
  std::vector<Watched> queues_;
  DeadlockVerdict verdict_;
};

}  // namespace fcswitch::lab

#include "lab/deadlock_detector.h"

#include <fmt/format.h>

#include <algorithm>

#include "lab/wait_for_graph.h"

namespace fcswitch::lab {

DeadlockDetector::DeadlockDetector(const LabScenario& scenario,
                                   const std::vector<const SwitchNode*>& switches,
                                   const TickRate& ticks)
    : switches_(switches),
      ticks_(ticks),
      blocked_for_ticks_(ticks.from_ns(scenario.deadlock.blocked_for_ns)) {
  const std::vector<std::vector<PortRef>> peers = scenario.peers();
  for (size_t n = 0; n < switches_.size(); ++n) {
    const SwitchNode* node = switches_[n];
    if (!node) continue;
    for (int port = 0; port < node->ports(); ++port)
      for (int prio = 0; prio < kNumPriorities; ++prio)
        if (node->tx(port).has_engine(prio)) {
          const PortRef self{static_cast<int>(n), port};
          queues_.push_back(Watched{static_cast<int>(n), port, prio, peers[n][port],
                                    fmt::format("{}:prio{}", scenario.port_name(self), prio)});
        }
  }
}

void DeadlockDetector::check(uint64_t now) {
  for (Watched& q : queues_) {
    const SwitchNode& node = *switches_[q.node];
    const uint64_t packets = node.tx_packets(q.port, q.priority);
    const uint64_t blocked_ns = node.tx(q.port).blocked_ns(q.priority, now);
    const bool holds = node.egress_depth_bytes(q.port, q.priority) > 0;
    if (packets != q.packets || !holds) q.last_progress_ticks = now;
    const bool gate_held = blocked_ns > q.blocked_ns;
    q.blocked = holds && gate_held && now - q.last_progress_ticks >= blocked_for_ticks_;
    q.packets = packets;
    q.blocked_ns = blocked_ns;
  }
  if (verdict_.detected) return;

  // Edges: a blocked queue waits for the blocked queues of its downstream switch that hold
  // packets from the ingress it feeds.
  std::vector<std::vector<int>> waits(queues_.size());
  for (size_t i = 0; i < queues_.size(); ++i) {
    const Watched& q = queues_[i];
    if (!q.blocked || q.downstream.node < 0 || !switches_[q.downstream.node]) continue;
    const SwitchNode& next = *switches_[q.downstream.node];
    for (size_t j = 0; j < queues_.size(); ++j) {
      const Watched& r = queues_[j];
      // Packets arrive downstream with the priority of the queue they left (the tags map to
      // the same priorities everywhere) and may wait there in another queue (Tagger's
      // rewrite).
      if (r.blocked && r.node == q.downstream.node &&
          next.queued_from_bytes(r.port, r.priority, q.downstream.port, q.priority) > 0)
        waits[i].push_back(static_cast<int>(j));
    }
  }
  const std::vector<int> cycle = find_cycle(waits);
  if (cycle.empty()) return;
  verdict_.detected = true;
  verdict_.detected_ns = ticks_.to_ns(now);
  uint64_t formed = 0;
  for (int v : cycle) {
    verdict_.cycle.push_back(queues_[v].name);
    formed = std::max(formed, queues_[v].last_progress_ticks);
  }
  verdict_.formed_ns = ticks_.to_ns(formed);
}

}  // namespace fcswitch::lab

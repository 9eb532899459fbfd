#pragma once
// Internal to lib/scenario (scenario_routes.cc and scenario_events.cc): ScenarioReader's walks
// of every flow's frames by the routes, templates on how a switch routes and what a refusal does.

#include <fmt/format.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "scenario/scenario_reader.h"

namespace fcswitch::lab {

// Walks each flow's frames from its source by `route(node, mac)` (the entry a switch
// forwards by, null if none), and with `loops` a closed loop's between any two of its hosts
// in different racks (its later flows; shortest paths reach every host the network joins,
// up-down and static routes may not), and what a flow's transport sends back to its source.
// Calls `unrouted(flow, dst, switch, target, said)` where a switch the frames reach has no
// route and does not learn (`target`: dst's name, and what goes there if not the flow's own
// frames; `said`: the flow's frames were refused on their way there, one line for one flow
// is enough); stops when that returns false. `routed_to` keeps, per destination, the switches
// earlier walks found routed (many flows share one).
template <typename Route, typename Unrouted>
void ScenarioReader::walk_flows(const std::vector<std::vector<PortRef>>& peers, bool loops,
                                Route route, std::unordered_map<int, std::vector<bool>>& routed_to,
                                Unrouted unrouted) {
  enum Walk { kRouted, kRefused, kStop };
  const auto walk = [&](int src, int dst, int flow, const char* sent_back = nullptr,
                        bool said = false) {
    const int at = unrouted_switch(peers, src, dst, route, routed_to[dst]);
    if (at < 0) return kRouted;
    const std::string& name = sketches_[dst].name;
    const std::string target =
        sent_back ? fmt::format("{} (its transport's {})", name, sent_back) : name;
    return unrouted(flow, dst, at, target, said) ? kRefused : kStop;
  };
  for (const FlowSpec& flow : out_.flows) {
    const Walk there = walk(flow.src, flow.dst, flow.id);
    if (there == kStop) return;
    const char* sent_back = frames_sent_back(flow);
    if (sent_back && walk(flow.dst, flow.src, flow.id, sent_back, there == kRefused) == kStop)
      return;
  }
  if (!loops) return;
  for (const FlowSpec& flow : out_.flows) {
    if (flow.closed_loop < 0 || flow.loop_host != 0) continue;
    const ClosedLoopSpec& loop = out_.closed_loops[flow.closed_loop];
    for (size_t a = 0; a < loop.nodes.size(); ++a)
      for (size_t b = 0; b < loop.nodes.size(); ++b)
        if (loop.racks[a] != loop.racks[b] && walk(loop.nodes[a], loop.nodes[b], flow.id) == kStop)
          return;
  }
}

// The walk above for frames from host `src` to host `dst`: the first switch on the way with
// no route that does not learn, or -1. It ends at the destination, a host, a switch seen
// before (a routing loop is a route: Tagger §8.1) or one `routed` (per node) says an earlier
// walk found routed; the switches of a walk that found every route are marked there.
template <typename Route>
int ScenarioReader::unrouted_switch(const std::vector<std::vector<PortRef>>& peers, int src,
                                    int dst, Route route, std::vector<bool>& routed) {
  const auto peer = [&](int node, int port) {
    return port < static_cast<int>(peers[node].size()) ? peers[node][port] : PortRef{};
  };
  const uint64_t mac = out_.nodes[dst].mac.value;
  if (routed.empty()) routed.assign(out_.nodes.size(), false);
  std::vector<PortRef> next = {peer(src, 0)};
  std::vector<bool> seen(out_.nodes.size(), false);
  std::vector<int> walked;
  while (!next.empty()) {
    const PortRef at = next.back();
    next.pop_back();
    if (at.node < 0 || out_.nodes[at.node].host || seen[at.node] || routed[at.node]) continue;
    seen[at.node] = true;
    walked.push_back(at.node);
    const config::FibEntry* entry = route(at.node, mac);
    if (!entry) {
      if (out_.nodes[at.node].config.mac_learning) continue;  // it learns the destination
      return at.node;
    }
    if (entry->group.empty()) {
      next.push_back(peer(at.node, entry->port));
    } else {
      for (int port : entry->group) next.push_back(peer(at.node, port));
    }
  }
  for (const int node : walked) routed[node] = true;
  return -1;
}

}  // namespace fcswitch::lab

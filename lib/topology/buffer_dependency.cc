#include "topology/buffer_dependency.h"

#include <algorithm>
#include <utility>

namespace fcswitch::topology {

std::vector<HostPair> pairs_across_racks(const HostTable& hosts) {
  std::vector<HostPair> pairs;
  for (HostId src = 0; src < hosts.size(); ++src)
    for (HostId dst = 0; dst < hosts.size(); ++dst)
      if (hosts.at(src).sw != hosts.at(dst).sw) pairs.push_back({src, dst});
  return pairs;
}

BufferDependencyGraph::BufferDependencyGraph(const Topology& topo, const RouteTable& routes,
                                             std::span<const HostPair> pairs)
    : successors_(static_cast<size_t>(topo.endpoints())) {
  const HostTable& hosts = routes.hosts();
  // Per destination, the ingress endpoints its packets enter the network at.
  std::vector<std::vector<EndpointId>> entries(static_cast<size_t>(hosts.size()));
  for (const HostPair& p : pairs) {
    if (p.src < 0 || p.src >= hosts.size() || p.dst < 0 || p.dst >= hosts.size()) continue;
    entries[p.dst].push_back(topo.ingress(hosts.at(p.src).sw, hosts.at(p.src).port));
  }
  // One search per destination over the endpoints its packets can reach: every next hop of
  // every group, so every ECMP path. `seen` holds the destination that last visited.
  std::vector<HostId> seen(successors_.size(), -1);
  std::vector<EndpointId> frontier;
  for (HostId dst = 0; dst < hosts.size(); ++dst) {
    frontier.clear();
    for (EndpointId e : entries[dst])
      if (seen[e] != dst) {
        seen[e] = dst;
        frontier.push_back(e);
      }
    for (size_t next = 0; next < frontier.size(); ++next) {
      const EndpointId from = frontier[next];
      const int sw = topo.switch_of(from);
      for (int port : routes.next_ports(sw, dst)) {
        const EndpointId to = topo.far_end(sw, port);
        // A host's NIC takes what arrives (a sink); a port leading nowhere drops it.
        if (to < 0 || topo.is_hosts(to)) continue;
        std::vector<EndpointId>& out = successors_[from];
        if (std::find(out.begin(), out.end(), to) == out.end()) {
          out.push_back(to);
          ++edges_;
        }
        if (seen[to] != dst) {
          seen[to] = dst;
          frontier.push_back(to);
        }
      }
    }
  }
  for (auto& out : successors_) std::sort(out.begin(), out.end());
  find_cyclic();
}

// Tarjan's strongly connected components, iteratively (a k = 16 fat-tree has thousands of
// endpoints: no recursion that deep).
void BufferDependencyGraph::find_cyclic() {
  const int n = vertices();
  constexpr int kUnvisited = -1;
  std::vector<int> index(n, kUnvisited), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<EndpointId> stack;
  std::vector<std::pair<EndpointId, size_t>> calls;  // (vertex, next successor to try)
  component_.assign(n, -1);
  int counter = 0, components = 0;
  for (EndpointId root = 0; root < n; ++root) {
    if (index[root] != kUnvisited) continue;
    calls.push_back({root, 0});
    while (!calls.empty()) {
      auto& [v, next] = calls.back();
      if (next == 0 && index[v] == kUnvisited) {
        index[v] = low[v] = counter++;
        stack.push_back(v);
        on_stack[v] = true;
      }
      if (next < successors_[v].size()) {
        const EndpointId w = successors_[v][next++];
        if (index[w] == kUnvisited) {
          calls.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const EndpointId done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
      if (low[done] != index[done]) continue;
      std::vector<EndpointId> members;
      EndpointId w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        component_[w] = components;
        members.push_back(w);
      } while (w != done);
      ++components;
      const bool self_loop =
          std::binary_search(successors_[done].begin(), successors_[done].end(), done);
      if (members.size() > 1 || self_loop)
        cyclic_.insert(cyclic_.end(), members.begin(), members.end());
    }
  }
  std::sort(cyclic_.begin(), cyclic_.end());
}

std::vector<EndpointId> BufferDependencyGraph::example_cycle() const {
  if (cyclic_.empty()) return {};
  const EndpointId start = cyclic_.front();
  // Breadth-first within start's component, back to start: a shortest cycle through it.
  std::vector<EndpointId> parent(successors_.size(), -1);
  std::vector<EndpointId> frontier{start};
  for (size_t next = 0; next < frontier.size(); ++next) {
    const EndpointId v = frontier[next];
    for (EndpointId w : successors_[v]) {
      if (component_[w] != component_[start]) continue;
      if (w == start) {
        std::vector<EndpointId> cycle;
        for (EndpointId u = v; u != start; u = parent[u]) cycle.push_back(u);
        cycle.push_back(start);
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
      }
      if (parent[w] != -1) continue;
      parent[w] = v;
      frontier.push_back(w);
    }
  }
  return {start};  // not reached: start lies on a cycle
}

}  // namespace fcswitch::topology

#include "tagger/elp.h"

#include <sstream>
#include <stdexcept>

#include "tagger/destination_trees.h"

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::PeerKind;
using topology::Topology;

namespace {

struct Neighbour {
  int sw;
  int port;  // the port of the current switch towards `sw`
};

std::vector<std::vector<Neighbour>> neighbours(const Topology& topo) {
  std::vector<std::vector<Neighbour>> out(topo.switches());
  for (int s = 0; s < topo.switches(); ++s) {
    const auto& ports = topo.at(s).ports;
    for (int p = 0; p < static_cast<int>(ports.size()); ++p)
      if (ports[p].peer == PeerKind::kSwitch) out[s].push_back({ports[p].peer_switch, p});
  }
  return out;
}

// Hops from every switch towards `dest`, by BFS over the links.
std::vector<int> distances_to(const std::vector<std::vector<Neighbour>>& adj, int dest) {
  std::vector<int> dist(adj.size(), -1);
  std::vector<int> queue{dest};
  dist[dest] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int u = queue[head];
    for (const Neighbour& n : adj[u])
      if (dist[n.sw] < 0) {
        dist[n.sw] = dist[u] + 1;
        queue.push_back(n.sw);
      }
  }
  return dist;
}

bool has_hosts(const Topology& topo, int s) {
  return topo.at(s).hosts >= 0;
}

}  // namespace

void shortest_paths(const Topology& topo, const RouteSink& sink) {
  const auto adj = neighbours(topo);
  std::vector<EndpointId> hops;
  for (int dest = 0; dest < topo.switches(); ++dest) {
    if (!has_hosts(topo, dest)) continue;
    const auto dist = distances_to(adj, dest);
    // Depth-first over the next hops one step closer.
    std::function<void(int, int)> walk = [&](int from, int u) {
      if (u == dest) return sink(from, hops);
      for (const Neighbour& n : adj[u]) {
        if (dist[n.sw] != dist[u] - 1) continue;
        hops.push_back(topo.far_end(u, n.port));
        walk(from, n.sw);
        hops.pop_back();
      }
    };
    for (int from = 0; from < topo.switches(); ++from)
      if (has_hosts(topo, from) && dist[from] >= 0) walk(from, from);
  }
}

void shortest_path_trees(const Topology& topo, uint64_t seed, const RouteSink& sink) {
  DestinationTrees(topo, seed).for_each_route(sink);
}

void updown_paths(const Topology& topo, int bounces, const RouteSink& sink) {
  for (const auto& s : topo.all())
    if (s.tier < 0) throw std::invalid_argument("up-down paths need switch tiers (a Clos)");
  const auto adj = neighbours(topo);
  std::vector<EndpointId> hops;
  std::vector<char> visited(topo.switches(), 0);
  for (int from = 0; from < topo.switches(); ++from) {
    if (!has_hosts(topo, from)) continue;
    // Shortest lengths from `from`, to tell the shortest up-down paths.
    const auto shortest = distances_to(adj, from);
    // going_down: the last move was down; a move up after it is a bounce.
    std::function<void(int, bool, int)> walk = [&](int u, bool going_down, int used) {
      if (has_hosts(topo, u)) {
        const bool shortest_updown = used == 0 && static_cast<int>(hops.size()) == shortest[u];
        if (shortest_updown || used > 0) sink(from, hops);
      }
      for (const Neighbour& n : adj[u]) {
        if (visited[n.sw]) continue;
        const bool up = topo.at(n.sw).tier > topo.at(u).tier;
        const int now_used = used + (going_down && up ? 1 : 0);
        if (now_used > bounces) continue;
        visited[n.sw] = 1;
        hops.push_back(topo.far_end(u, n.port));
        walk(n.sw, !up, now_used);
        hops.pop_back();
        visited[n.sw] = 0;
      }
    };
    visited[from] = 1;
    walk(from, false, 0);
    visited[from] = 0;
  }
}

void read_elp_paths(const Topology& topo, std::istream& in, const std::string& file,
                    const RouteSink& sink) {
  std::string line;
  int number = 0;
  std::vector<EndpointId> hops;
  while (std::getline(in, line)) {
    ++number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string w; words >> w;) tokens.push_back(w);
    if (tokens.empty()) continue;
    auto fail = [&](const std::string& what) {
      throw std::runtime_error(file + ":" + std::to_string(number) + ": " + what);
    };
    // Host names at either end only say where the path starts and ends: drop them.
    auto is_host = [&](const std::string& name) {
      for (const auto& s : topo.all())
        for (const auto& p : s.ports)
          if (p.peer == PeerKind::kHost && p.host == name) return true;
      return false;
    };
    if (is_host(tokens.front())) tokens.erase(tokens.begin());
    if (!tokens.empty() && is_host(tokens.back())) tokens.pop_back();
    if (tokens.empty()) fail("no switch on the path");
    hops.clear();
    int from = -1;
    int prev = -1;
    for (const std::string& token : tokens) {
      const auto colon = token.find(':');
      const std::string name = token.substr(0, colon);
      const int sw = topo.switch_index(name);
      if (sw < 0) fail("unknown switch or host \"" + name + "\"");
      int in_port = -1;
      if (colon != std::string::npos) {
        in_port = topo.port_index(sw, token.substr(colon + 1));
        if (in_port < 0)
          fail("switch " + name + " has no port \"" + token.substr(colon + 1) + "\"");
      }
      if (prev < 0) {
        from = sw;
        prev = sw;
        continue;
      }
      EndpointId hop = -1;
      const auto& ports = topo.at(prev).ports;
      for (int p = 0; p < static_cast<int>(ports.size()) && hop < 0; ++p) {
        if (ports[p].peer != PeerKind::kSwitch || ports[p].peer_switch != sw) continue;
        if (in_port >= 0 && ports[p].peer_port != in_port) continue;
        hop = topo.far_end(prev, p);
      }
      if (hop < 0) fail("no link from " + topo.at(prev).name + " to " + token);
      for (EndpointId seen : hops)
        if (topo.switch_of(seen) == sw)
          fail("the path visits " + name + " twice (ELP paths are loop-free)");
      if (sw == from) fail("the path visits " + name + " twice (ELP paths are loop-free)");
      hops.push_back(hop);
      prev = sw;
    }
    if (!has_hosts(topo, prev))
      fail("the path ends at " + topo.at(prev).name + ", which has no hosts");
    if (!has_hosts(topo, from))
      fail("the path starts at " + topo.at(from).name + ", which has no hosts");
    sink(from, hops);
  }
}

}  // namespace fcswitch::tagger

#include "topology/topology_generators.h"

#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fcswitch::topology {

Topology clos(const ClosShape& shape) {
  if (shape.pods < 1 || shape.tors_per_pod < 1 || shape.leaves_per_pod < 1 || shape.spines < 1 ||
      shape.hosts_per_tor < 0)
    throw std::invalid_argument("clos: every count must be at least 1");
  if (shape.spine_groups && shape.spines % shape.leaves_per_pod != 0)
    throw std::invalid_argument("clos: spines must divide into one group per leaf of a pod");
  Topology topo;
  std::vector<int> spines;
  for (int s = 0; s < shape.spines; ++s)
    spines.push_back(topo.add_switch("S" + std::to_string(s + 1), 2));
  int tor_number = 0;
  int leaf_number = 0;
  for (int pod = 0; pod < shape.pods; ++pod) {
    std::vector<int> tors, leaves;
    for (int t = 0; t < shape.tors_per_pod; ++t)
      tors.push_back(topo.add_switch("T" + std::to_string(++tor_number), 0));
    for (int l = 0; l < shape.leaves_per_pod; ++l)
      leaves.push_back(topo.add_switch("L" + std::to_string(++leaf_number), 1));
    // Ports in the order a ToR's cabling reads: hosts, then uplinks; a leaf's downlinks, then
    // uplinks.
    for (int t : tors)
      for (int h = 0; h < shape.hosts_per_tor; ++h)
        topo.attach_host(t, topo.at(t).name + "h" + std::to_string(h + 1));
    for (int t : tors)
      for (int l : leaves) topo.link_new_ports(t, l);
    const int group = shape.spines / shape.leaves_per_pod;
    for (int i = 0; i < shape.leaves_per_pod; ++i) {
      for (int s = 0; s < shape.spines; ++s) {
        if (shape.spine_groups && s / group != i) continue;
        topo.link_new_ports(leaves[i], spines[s]);
      }
    }
  }
  topo.finish();
  return topo;
}

Topology fat_tree(int k) {
  if (k < 2 || k % 2 != 0) throw std::invalid_argument("fat-tree: k must be even and >= 2");
  return clos(ClosShape{k, k / 2, k / 2, (k / 2) * (k / 2), k / 2, true});
}

std::string fat_tree_host(int k, int index) {
  const int per_edge = k / 2;
  if (k < 2 || k % 2 != 0 || index < 0 || index >= k * k * k / 4)
    throw std::invalid_argument("fat-tree: no host H" + std::to_string(index) +
                                " in k = " + std::to_string(k));
  // clos() counts edge switches across pods and attaches each one's hosts in order, so the
  // paper's left-to-right numbering is edge-major.
  return "T" + std::to_string(index / per_edge + 1) + "h" + std::to_string(index % per_edge + 1);
}

Topology jellyfish(int switches, int ports, int network_ports, uint64_t seed) {
  if (switches < 2 || network_ports < 1 || network_ports > ports || network_ports >= switches)
    throw std::invalid_argument("jellyfish: need 2+ switches and 1 <= r <= ports, r < switches");
  std::mt19937_64 rng(seed);
  std::vector<std::vector<int>> adj(switches);
  auto linked = [&](int a, int b) {
    for (int x : adj[a])
      if (x == b) return true;
    return false;
  };
  auto unlink = [&](int a, int b) {
    auto drop = [](std::vector<int>& v, int x) {
      for (size_t i = 0; i < v.size(); ++i)
        if (v[i] == x) {
          v[i] = v.back();
          v.pop_back();
          return;
        }
    };
    drop(adj[a], b);
    drop(adj[b], a);
  };
  std::vector<int> open;  // switches with a free network port
  for (int s = 0; s < switches; ++s) open.push_back(s);
  auto close_if_full = [&](int s) {
    if (static_cast<int>(adj[s].size()) < network_ports) return;
    for (size_t i = 0; i < open.size(); ++i)
      if (open[i] == s) {
        open[i] = open.back();
        open.pop_back();
        return;
      }
  };
  int stuck = 0;
  while (open.size() >= 2 && stuck < 64 * switches) {
    std::uniform_int_distribution<size_t> pick(0, open.size() - 1);
    const int a = open[pick(rng)];
    const int b = open[pick(rng)];
    if (a == b || linked(a, b)) {
      // Do the remaining free ports only pair up with existing neighbours?
      bool any = false;
      for (size_t i = 0; i < open.size() && !any; ++i)
        for (size_t j = i + 1; j < open.size() && !any; ++j) any = !linked(open[i], open[j]);
      if (any) {
        ++stuck;
        continue;
      }
      break;
    }
    adj[a].push_back(b);
    adj[b].push_back(a);
    close_if_full(a);
    close_if_full(b);
  }
  // A switch left with two or more free ports: break a random link (x, y) not touching it
  // and take both ends (Jellyfish §3).
  for (int s = 0; s < switches; ++s) {
    int guard = 0;
    while (network_ports - static_cast<int>(adj[s].size()) >= 2 && guard++ < 1000) {
      std::uniform_int_distribution<int> any_switch(0, switches - 1);
      const int x = any_switch(rng);
      if (x == s || adj[x].empty() || linked(s, x)) continue;
      std::uniform_int_distribution<size_t> any_neighbour(0, adj[x].size() - 1);
      const int y = adj[x][any_neighbour(rng)];
      if (y == s || linked(s, y)) continue;
      unlink(x, y);
      adj[s].push_back(x);
      adj[x].push_back(s);
      adj[s].push_back(y);
      adj[y].push_back(s);
    }
  }
  Topology topo;
  for (int s = 0; s < switches; ++s) topo.add_switch("J" + std::to_string(s), -1);
  for (int s = 0; s < switches; ++s)
    for (int t : adj[s])
      if (s < t) topo.link_new_ports(s, t);
  for (int s = 0; s < switches; ++s) {
    const int hosts = ports - static_cast<int>(adj[s].size());
    for (int h = 0; h < hosts; ++h)
      topo.attach_host(s, topo.at(s).name + "h" + std::to_string(h + 1));
  }
  topo.finish();
  return topo;
}

Topology bcube(int n, int k) {
  if (n < 2 || k < 0 || k > 6) throw std::invalid_argument("bcube: need n >= 2 and 0 <= k <= 6");
  int servers = 1;
  for (int i = 0; i <= k; ++i) servers *= n;
  const int per_level = servers / n;
  Topology topo;
  std::vector<int> server_node(servers);
  for (int v = 0; v < servers; ++v) server_node[v] = topo.add_switch("srv" + std::to_string(v));
  std::vector<std::vector<int>> level_switch(k + 1, std::vector<int>(per_level));
  for (int l = 0; l <= k; ++l)
    for (int i = 0; i < per_level; ++i)
      level_switch[l][i] = topo.add_switch("sw" + std::to_string(l) + "_" + std::to_string(i));
  for (int v = 0; v < servers; ++v) {
    topo.attach_host(server_node[v], "srv" + std::to_string(v) + "h");
    int power = 1;
    for (int l = 0; l <= k; ++l) {
      // The level-l switch is named by v's digits other than digit l; v sits on its port
      // digit l, since servers join in increasing v.
      const int index = (v / (power * n)) * power + v % power;
      topo.link_new_ports(server_node[v], level_switch[l][index]);
      power *= n;
    }
  }
  topo.finish();
  return topo;
}

Topology ring(int switches) {
  if (switches < 3) throw std::invalid_argument("ring: need 3 or more switches");
  Topology topo;
  for (int i = 0; i < switches; ++i) {
    const std::string n = std::to_string(i + 1);
    const int sw = topo.add_switch("S" + n);
    topo.attach_host(sw, "H" + n, topo.add_port(sw, "h"));
    topo.add_port(sw, "cw");
    topo.add_port(sw, "ccw");
  }
  constexpr int kCw = 1;
  constexpr int kCcw = 2;
  for (int i = 0; i < switches; ++i) topo.link(i, kCw, (i + 1) % switches, kCcw);
  topo.finish();
  return topo;
}

Topology leaf_spine(int leaves, int spines, int hosts_per_leaf) {
  if (leaves < 1 || spines < 1 || hosts_per_leaf < 0)
    throw std::invalid_argument("leaf-spine: need 1+ leaves, 1+ spines, 0+ hosts per leaf");
  Topology topo;
  std::vector<int> leaf(leaves), spine(spines);
  for (int l = 0; l < leaves; ++l) leaf[l] = topo.add_switch("L" + std::to_string(l + 1), 0);
  for (int s = 0; s < spines; ++s) spine[s] = topo.add_switch("S" + std::to_string(s + 1), 1);
  for (int l : leaf)
    for (int h = 0; h < hosts_per_leaf; ++h)
      topo.attach_host(l, topo.at(l).name + "h" + std::to_string(h + 1));
  for (int l : leaf)
    for (int s : spine) topo.link_new_ports(l, s);
  topo.finish();
  return topo;
}

}  // namespace fcswitch::topology

#include "tagger/destination_trees.h"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::PeerKind;
using topology::Topology;

namespace {

// Switch-to-switch links in compressed rows: switch s's neighbours (peer switch, own port) in
// port order, the order the tie-breaking draws follow.
struct Adjacency {
  std::vector<uint32_t> first;  // s → first index in peer/port, size switches + 1
  std::vector<int> peer;
  std::vector<uint8_t> port;
};

Adjacency adjacency(const Topology& topo) {
  Adjacency adj;
  adj.first.push_back(0);
  for (int s = 0; s < topo.switches(); ++s) {
    const auto& ports = topo.at(s).ports;
    if (ports.size() >= DestinationTrees::kNoPort)
      throw std::invalid_argument(topo.at(s).name + ": more than 254 ports");
    for (int p = 0; p < static_cast<int>(ports.size()); ++p)
      if (ports[p].peer == PeerKind::kSwitch) {
        adj.peer.push_back(ports[p].peer_switch);
        adj.port.push_back(static_cast<uint8_t>(p));
      }
    adj.first.push_back(static_cast<uint32_t>(adj.peer.size()));
  }
  return adj;
}

// One tree's BFS, done on any thread: for every switch, the ports one hop closer to the root
// (in port order), for the draws that pick one of them.
struct TreeCandidates {
  std::vector<int> dist;  // hops to the root, -1 unreachable
  std::vector<int> queue;
  std::vector<uint32_t> first;  // switch → first candidate, size switches + 1
  std::vector<uint8_t> ports;

  void compute(const Adjacency& adj, int root) {
    const size_t n = adj.first.size() - 1;
    dist.assign(n, -1);
    queue.assign(1, root);
    dist[root] = 0;
    for (size_t head = 0; head < queue.size(); ++head) {
      const int u = queue[head];
      for (uint32_t i = adj.first[u]; i < adj.first[u + 1]; ++i)
        if (dist[adj.peer[i]] < 0) {
          dist[adj.peer[i]] = dist[u] + 1;
          queue.push_back(adj.peer[i]);
        }
    }
    first.assign(1, 0);
    ports.clear();
    for (size_t u = 0; u < n; ++u) {
      if (dist[u] > 0)
        for (uint32_t i = adj.first[u]; i < adj.first[u + 1]; ++i)
          if (dist[adj.peer[i]] == dist[u] - 1) ports.push_back(adj.port[i]);
      first.push_back(static_cast<uint32_t>(ports.size()));
    }
  }
};

}  // namespace

DestinationTrees::DestinationTrees(const Topology& topo, uint64_t seed, const ParallelWork& work)
    : topo_(topo), switches_(static_cast<size_t>(topo.switches())) {
  for (int s = 0; s < topo.switches(); ++s)
    if (topo.at(s).hosts >= 0) destinations_.push_back(s);
  ports_.assign(destinations_.size() * switches_, kNoPort);
  for (int s = 0; s < topo.switches(); ++s) {
    first_endpoint_.push_back(topo.at(s).first_endpoint);
    for (int p = 0; p < static_cast<int>(topo.at(s).ports.size()); ++p)
      far_end_.push_back(topo.far_end(s, p));
  }
  const Adjacency adj = adjacency(topo);
  std::mt19937_64 rng(seed);
  std::vector<TreeCandidates> slots(std::max<size_t>(work.batch, 1));
  // The BFS runs in parallel; the draws, one random stream for all trees, in tree order.
  const auto bfs = [&](size_t tree) {
    slots[tree % slots.size()].compute(adj, destinations_[tree]);
  };
  const auto draw = [&](size_t first_tree, size_t end_tree) {
    for (size_t tree = first_tree; tree < end_tree; ++tree) {
      const TreeCandidates& c = slots[tree % slots.size()];
      uint8_t* row = &ports_[tree * switches_];
      for (size_t u = 0; u < switches_; ++u) {
        // Reservoir choice: each equally short next hop with the same chance.
        for (uint32_t i = c.first[u], choices = 0; i < c.first[u + 1]; ++i)
          if (std::uniform_int_distribution<int>(0, static_cast<int>(choices++))(rng) == 0)
            row[u] = c.ports[i];
      }
      for (int from : destinations_)
        if (c.dist[from] >= 0) {
          ++summary_.routes;
          summary_.longest_switches = std::max(summary_.longest_switches, c.dist[from] + 1);
        }
    }
  };
  run_in_batches(work, destinations_.size(), bfs, draw, 0, static_cast<double>(trees()));
}

bool DestinationTrees::routes_from(int tree, int from) const {
  return topo_.at(from).hosts >= 0 &&
         (from == destinations_[tree] || port_towards(tree, from) != kNoPort);
}

std::vector<EndpointId> DestinationTrees::hops(int tree, int from) const {
  std::vector<EndpointId> out;
  for (int u = from; u != destinations_[tree];) {
    out.push_back(next_hop(tree, u));
    u = topo_.switch_of(out.back());
  }
  return out;
}

void DestinationTrees::for_each_route(const RouteSink& sink) const {
  for (int tree = 0; tree < trees(); ++tree)
    for (int from : destinations_)
      if (routes_from(tree, from)) sink(from, hops(tree, from));
}

}  // namespace fcswitch::tagger

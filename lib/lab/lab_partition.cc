#include "lab/lab_partition.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace fcswitch::lab {

namespace {

// Nodes that must share a thread, as a union-find.
class Units {
 public:
  explicit Units(size_t nodes) : parent_(nodes) { std::iota(parent_.begin(), parent_.end(), 0); }
  size_t find(size_t n) {
    while (parent_[n] != n) n = parent_[n] = parent_[parent_[n]];
    return n;
  }
  void join(size_t a, size_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);  // a unit's root is its first node
  }

 private:
  std::vector<size_t> parent_;
};

}  // namespace

LabPartition partition_lab(const LabScenario& scenario, int threads) {
  LabPartition out;
  const size_t n = scenario.nodes.size();
  out.part_of_node.assign(n, 0);
  if (threads == 1) return out;
  if (threads < 1)
    throw std::invalid_argument(fmt::format("--threads {}: expected 1 or more", threads));
  if (scenario.clock != LabClock::kVirtual)
    throw std::invalid_argument(
        fmt::format("--threads {}: runs on clock = \"virtual\" only, found \"{}\"", threads,
                    clock_name(scenario.clock)));
  if (!scenario.closed_loops.empty())
    throw std::invalid_argument(fmt::format(
        "--threads {}: closed-loop workloads run on one thread (a flow's end starts its host's "
        "next flow at the same instant, with no link delay between them)",
        threads));

  Units units(n);
  for (const LabLinkSpec& link : scenario.links)
    if (link.delay_ns == 0 || scenario.nodes[link.a.node].host || scenario.nodes[link.b.node].host)
      units.join(static_cast<size_t>(link.a.node), static_cast<size_t>(link.b.node));
  // Units by their first node, their weight (ports: what a node's polls cost follows them) and
  // the links between them (one entry a link end).
  std::vector<int> unit_of(n, -1);
  std::vector<size_t> roots;
  for (size_t i = 0; i < n; ++i)
    if (units.find(i) == i) {
      unit_of[i] = static_cast<int>(roots.size());
      roots.push_back(i);
    }
  const size_t count = roots.size();
  std::vector<uint64_t> weight(count, 0);
  for (size_t i = 0; i < n; ++i) {
    unit_of[i] = unit_of[units.find(i)];
    weight[unit_of[i]] += std::max<size_t>(1, scenario.nodes[i].config.ports.size());
  }
  if (count < static_cast<size_t>(threads))
    throw std::invalid_argument(fmt::format(
        "--threads {}: the network splits into {} part{} at most (a host stays with its switch, "
        "and a link without delay keeps its ends together)",
        threads, count, count == 1 ? "" : "s"));
  std::vector<std::vector<int>> neighbours(count);
  for (const LabLinkSpec& link : scenario.links) {
    const int a = unit_of[link.a.node], b = unit_of[link.b.node];
    if (a == b) continue;
    neighbours[a].push_back(b);
    neighbours[b].push_back(a);
  }

  // Greedy graph growing: gain = links into the part − links out of it, for each unit not
  // placed; the part takes the best (the first on a tie) until it holds its share.
  std::vector<int> part(count, -1);
  uint64_t left = std::accumulate(weight.begin(), weight.end(), uint64_t{0});
  size_t placed = 0;
  for (int p = 0; p < threads; ++p) {
    const uint64_t share = left / static_cast<uint64_t>(threads - p);
    std::vector<int64_t> gain(count);
    for (size_t u = 0; u < count; ++u) gain[u] = -static_cast<int64_t>(neighbours[u].size());
    std::vector<bool> frontier(count, false);
    uint64_t held = 0;
    const size_t must_leave = static_cast<size_t>(threads - p - 1);  // a unit for each part after
    while (placed < count - must_leave && (p == threads - 1 || held < share)) {
      int best = -1;
      for (size_t u = 0; u < count; ++u)
        if (part[u] < 0 && (best < 0 || (frontier[u] && !frontier[best]) ||
                            (frontier[u] == frontier[best] && gain[u] > gain[best])))
          best = static_cast<int>(u);
      part[best] = p;
      ++placed;
      held += weight[best];
      for (int v : neighbours[best]) {
        gain[v] += 2;
        frontier[v] = true;
      }
    }
    left -= held;
  }

  out.parts = threads;
  out.lookahead_ns = std::numeric_limits<uint64_t>::max();
  for (size_t i = 0; i < n; ++i) out.part_of_node[i] = part[unit_of[i]];
  for (const LabLinkSpec& link : scenario.links)
    if (out.part_of_node[link.a.node] != out.part_of_node[link.b.node]) {
      out.lookahead_ns = std::min(out.lookahead_ns, link.delay_ns);
      ++out.links_between;
    }
  if (out.lookahead_ns == std::numeric_limits<uint64_t>::max())
    out.lookahead_ns = 0;  // parts with no link between them: never wait for each other
  return out;
}

}  // namespace fcswitch::lab

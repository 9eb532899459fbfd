#include "tagger/greedy_tagging.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::Topology;

namespace {

// Each tree's routes between hops: for every switch, the tags of the routes that have just
// left it towards the root (bit tag − kFirstTag), kept from one hop to the next so that each
// hop of a tree is walked once (walking every tree again from its sources at each hop took 59
// of Algorithm 2's 88 CPU seconds at 10 000 switches; once, 25). A route has been through at
// most `hop` decisions, each raising its tag by one at most, so a byte holds the tags of
// routes of up to 8 switches (Jellyfish: 100 MB for 10 000 switches); longer ones take a word.
//
// Trees are walked kGroup at a time, switch by switch and, at each switch, tree by tree: the
// decisions read at a switch v are those of its neighbours' ports facing v (a few kB), where
// one tree after the other reads decisions all over the table (10^8 bytes at 10 000
// switches) and waits on memory for nearly each: 22 CPU seconds then, 14 now (groups of 16
// or 32 trees did worse; of 512, no better, and their transitions asked for took 0.5 GB).
template <class Mask>
class TreeFrontiers {
 public:
  static constexpr size_t kGroup = 64;

  TreeFrontiers(const Topology& topo, const DestinationTrees& trees, size_t slots)
      : topo_(topo),
        trees_(trees),
        switches_(static_cast<size_t>(topo.switches())),
        left_(static_cast<size_t>(trees.trees()) * switches_, 0),
        scratch_(slots, Scratch{std::vector<Mask>(kGroup * switches_, 0), {}}) {}

  size_t groups() const { return (static_cast<size_t>(trees_.trees()) + kGroup - 1) / kGroup; }

  // The trees of `group` at hop `hop` (each group walked at hops 0, 1, 2, … in turn, from any
  // thread, `slot` its own): moves their routes on by the decisions of hop − 1, then lists
  // the transitions they take at `hop` that no decision covers yet (in requests(slot)).
  void walk(const GreedyDecisions& decided, size_t slot, size_t group, int hop) {
    Scratch& s = scratch_[slot];
    s.requests.clear();
    const int first = static_cast<int>(group * kGroup);
    const int end = std::min(trees_.trees(), first + static_cast<int>(kGroup));
    Mask* left = &left_[static_cast<size_t>(first) * switches_];  // [tree − first][switch]
    const std::vector<int>& roots = trees_.destinations();
    if (hop <= 1) {
      // Hop 0: from every source's hosts, with the first tag.
      for (int from : roots) {
        const EndpointId at = source_endpoint(topo_, from);
        for (int tree = first; tree < end; ++tree) {
          if (!trees_.routes_from(tree, from)) continue;
          if (hop == 0) {
            request(decided, s, tree, at, kFirstTag, from);
          } else if (from != roots[tree]) {
            left[(tree - first) * switches_ + from] =
                bit(decided.new_tag_by_slot(at, kFirstTag, trees_.port_towards(tree, from)));
          }
        }
      }
      if (hop == 0) return;
    } else {
      // Routes that left switch v reach v's parent w, and leave it (unless w is the root).
      for (size_t v = 0; v < switches_; ++v)
        for (int tree = first; tree < end; ++tree) {
          const size_t row = (tree - first) * switches_;
          const Mask tags = left[row + v];
          if (!tags) continue;
          const EndpointId at = trees_.next_hop(tree, static_cast<int>(v));
          const int w = topo_.switch_of(at);
          if (w == roots[tree]) continue;
          const int out = trees_.port_towards(tree, w);
          for (uint64_t rest = tags; rest; rest &= rest - 1)
            s.left[row + w] |=
                bit(decided.new_tag_by_slot(at, kFirstTag + std::countr_zero(rest), out));
        }
      const size_t masks = static_cast<size_t>(end - first) * switches_;
      std::copy(s.left.begin(), s.left.begin() + masks, left);
      std::fill(s.left.begin(), s.left.begin() + masks, 0);
    }
    // The transitions at this hop: into v's parent, on to its parent or its hosts.
    for (size_t v = 0; v < switches_; ++v)
      for (int tree = first; tree < end; ++tree) {
        const Mask tags = left[(tree - first) * switches_ + v];
        if (!tags) continue;
        const EndpointId at = trees_.next_hop(tree, static_cast<int>(v));
        const int w = topo_.switch_of(at);
        for (uint64_t rest = tags; rest; rest &= rest - 1)
          request(decided, s, tree, at, kFirstTag + std::countr_zero(rest), w);
      }
  }

  const std::vector<PendingTransition>& requests(size_t slot) const {
    return scratch_[slot].requests;
  }

 private:
  struct Scratch {
    std::vector<Mask> left;  // the next hop's masks, [tree − first][switch], 0 between walks
    std::vector<PendingTransition> requests;
  };

  static Mask bit(int tag) {
    const int b = tag - kFirstTag;
    if (b < 0 || b >= static_cast<int>(8 * sizeof(Mask)))
      throw std::overflow_error("Algorithm 2: tag " + std::to_string(tag) +
                                " on a tree walk (tags are 1 … 64)");
    return static_cast<Mask>(Mask{1} << b);
  }
  // The transition of tree `tree` from `at` (an ingress of switch `sw`) with `tag` towards the
  // root, or to its hosts at the root, unless decided or asked for by an earlier batch of
  // trees (the merge marks them pending).
  void request(const GreedyDecisions& decided, Scratch& s, int tree, EndpointId at, int tag,
               int sw) const {
    const bool root = sw == trees_.destinations()[tree];
    const int out = root ? decided.hosts_slot(sw) : trees_.port_towards(tree, sw);
    if (decided.new_tag_by_slot(at, tag, out) == GreedyDecisions::kUndecided)
      s.requests.push_back({root ? topo_.at(sw).hosts : trees_.next_hop(tree, sw), at, tag});
  }

  const Topology& topo_;
  const DestinationTrees& trees_;
  size_t switches_;
  std::vector<Mask> left_;  // [tree * switches + switch]
  std::vector<Scratch> scratch_;
};

template <class Mask>
GreedyDecisions greedy_on_trees(const Topology& topo, const DestinationTrees& trees,
                                const ParallelWork& work) {
  GreedyDecisions decided(topo);
  // Groups of trees are the tasks; a few at a time between merges (each holds a group's
  // next-hop masks: 640 kB at 10 000 switches).
  ParallelWork grouped = work;
  grouped.batch = std::clamp<size_t>(work.batch / 8, 1, 16);
  const size_t slots = grouped.batch;
  TreeFrontiers<Mask> frontiers(topo, trees, slots);
  const size_t groups = frontiers.groups();
  std::vector<PendingTransition> pending;
  // A route of k hops takes k + 1 transitions (the last to the hosts): hops 0 … longest − 1.
  // Progress in steps: per hop, one per group of trees walked, then as many for the decisions.
  const int layers = trees.summary().longest_switches;
  const double per_hop = 2.0 * static_cast<double>(groups);
  const double total = layers * per_hop;
  // Tagger Algorithm 2, line 3: Algorithm 1's tags in order, i.e. the routes' hops.
  for (int layer = 0; layer < layers; ++layer) {
    pending.clear();
    run_in_batches(
        grouped, groups,
        [&](size_t group) { frontiers.walk(decided, group % slots, group, layer); },
        [&](size_t first, size_t end) {
          for (size_t group = first; group < end; ++group) {
            for (const PendingTransition& t : frontiers.requests(group % slots))
              if (decided.pend(t)) pending.push_back(t);
          }
        },
        layer * per_hop, total);
    // As the route walk: no transition left at a hop ends the greedy.
    if (pending.empty()) break;
    decided.decide(pending, [&](double fraction) {
      work.report((layer + 0.5 + fraction / 2) * per_hop, total);
    });
  }
  decided.drop_sandboxes();
  return decided;
}

}  // namespace

GreedyDecisions greedy_decisions(const Topology& topo, const RouteSource& routes,
                                 ElpSummary* summary, const ParallelWork& work) {
  GreedyDecisions decided(topo);
  ElpSummary seen;
  std::vector<PendingTransition> pending;
  // Tagger Algorithm 2, line 3: Algorithm 1's tags in order, i.e. the routes' hops.
  for (int layer = 0;; ++layer) {
    // The transitions routes take at hop `layer`, reached through the decisions so far.
    pending.clear();
    routes([&](int from, std::span<const EndpointId> hops) {
      if (layer == 0) {
        ++seen.routes;
        seen.longest_switches = std::max(seen.longest_switches, static_cast<int>(hops.size()) + 1);
      }
      if (layer > static_cast<int>(hops.size())) return;
      EndpointId at = source_endpoint(topo, from);
      int tag = kFirstTag;
      for (int h = 0; h < layer; ++h) {
        tag = decided.new_tag(at, tag, hops[h]);
        at = hops[h];
      }
      const int last = hops.empty() ? from : topo.switch_of(hops.back());
      const EndpointId next =
          layer < static_cast<int>(hops.size()) ? hops[layer] : topo.at(last).hosts;
      if (const PendingTransition t{next, at, tag}; decided.pend(t)) pending.push_back(t);
    });
    if (pending.empty()) break;
    decided.decide(pending);
    work.report(layer + 1, 0);
  }
  if (summary) *summary = seen;
  decided.drop_sandboxes();
  return decided;
}

GreedyDecisions greedy_decisions(const Topology& topo, const DestinationTrees& trees,
                                 const ParallelWork& work) {
  // Tags of routes of up to 8 switches fit a byte (TreeFrontiers).
  if (trees.summary().longest_switches <= 8) return greedy_on_trees<uint8_t>(topo, trees, work);
  return greedy_on_trees<uint64_t>(topo, trees, work);
}

TaggedGraph greedy_tagging(const Topology& topo, const RouteSource& routes, ElpSummary* summary,
                           const ParallelWork& work) {
  return greedy_decisions(topo, routes, summary, work).graph();
}

TaggedGraph greedy_tagging(const Topology& topo, const DestinationTrees& trees,
                           const ParallelWork& work) {
  return greedy_decisions(topo, trees, work).graph();
}

}  // namespace fcswitch::tagger

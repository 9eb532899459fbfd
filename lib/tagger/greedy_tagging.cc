#include "tagger/greedy_tagging.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "tagger/greedy_decisions.h"

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::Topology;

namespace {

using TagMask = uint64_t;  // bit t: tag t (tags are DSCP values, below 64)

TagMask tag_bit(int tag) {
  if (tag < 0 || tag >= 64) throw std::overflow_error("Algorithm 2: a tag above 63");
  return TagMask{1} << tag;
}

// One tree's walk to hop `layer`, on any thread: the switches routes have just left, each
// with the tags they left with. Scratch reused from tree to tree.
class TreeLayerWalk {
 public:
  explicit TreeLayerWalk(int switches) : mask_(switches, 0), next_mask_(switches, 0) {}

  // The transitions routes of tree `tree` take at hop `layer` that no decision covers yet.
  void walk(const Topology& topo, const DestinationTrees& trees, const GreedyDecisions& decided,
            int tree, int layer) {
    requests.clear();
    active_.clear();
    const int root = trees.destinations()[tree];
    const EndpointId delivery = topo.at(root).hosts;
    // Hop 0: from every source's hosts, tag 1.
    for (int from : trees.destinations()) {
      if (!trees.routes_from(tree, from)) continue;
      const EndpointId at = source_endpoint(topo, from);
      const EndpointId next = from == root ? delivery : trees.next_hop(tree, from);
      if (layer == 0) {
        request(decided, at, kFirstTag, next);
      } else if (from != root) {
        enter(from, tag_bit(decided.new_tag(at, kFirstTag, next)), active_, mask_);
      }
    }
    // Hop l: routes that left switch v reach v's parent w, on to w's parent or w's hosts.
    for (int l = 1; l <= layer && !active_.empty(); ++l) {
      next_active_.clear();
      for (int v : active_) {
        const TagMask tags = mask_[v];
        mask_[v] = 0;
        const EndpointId at = trees.next_hop(tree, v);
        const int w = topo.switch_of(at);
        const EndpointId next = w == root ? delivery : trees.next_hop(tree, w);
        for (TagMask rest = tags; rest; rest &= rest - 1) {
          const int tag = std::countr_zero(rest);
          if (l == layer) {
            request(decided, at, tag, next);
          } else if (w != root) {
            enter(w, tag_bit(decided.new_tag(at, tag, next)), next_active_, next_mask_);
          }
        }
      }
      std::swap(active_, next_active_);
      std::swap(mask_, next_mask_);
    }
    for (int v : active_) mask_[v] = 0;
  }

  std::vector<PendingTransition> requests;

 private:
  void request(const GreedyDecisions& decided, EndpointId at, int tag, EndpointId next) {
    // Not yet asked for by an earlier batch of trees (the merge marks them pending).
    if (decided.new_tag(at, tag, next) == GreedyDecisions::kUndecided)
      requests.push_back({next, at, tag});
  }
  static void enter(int sw, TagMask tags, std::vector<int>& active, std::vector<TagMask>& mask) {
    if (!mask[sw]) active.push_back(sw);
    mask[sw] |= tags;
  }

  std::vector<TagMask> mask_, next_mask_;  // switch → tags of the routes that just left it
  std::vector<int> active_, next_active_;  // switches with a mask
};

}  // namespace

TaggedGraph greedy_tagging(const Topology& topo, const RouteSource& routes, ElpSummary* summary,
                           const ParallelWork& work) {
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
  return decided.graph();
}

TaggedGraph greedy_tagging(const Topology& topo, const DestinationTrees& trees,
                           const ParallelWork& work) {
  GreedyDecisions decided(topo);
  std::vector<TreeLayerWalk> walks(std::max<size_t>(work.batch, 1), TreeLayerWalk(topo.switches()));
  std::vector<PendingTransition> pending;
  // A route of k hops takes k + 1 transitions (the last to the hosts): hops 0 … longest − 1.
  // Progress in steps: per hop, one per tree walked, then as many for the decisions.
  const int layers = trees.summary().longest_switches;
  const double per_hop = 2.0 * trees.trees();
  const double total = layers * per_hop;
  // Tagger Algorithm 2, line 3: Algorithm 1's tags in order, i.e. the routes' hops.
  for (int layer = 0; layer < layers; ++layer) {
    pending.clear();
    run_in_batches(
        work, static_cast<size_t>(trees.trees()),
        [&](size_t tree) {
          walks[tree % walks.size()].walk(topo, trees, decided, static_cast<int>(tree), layer);
        },
        [&](size_t first, size_t end) {
          for (size_t tree = first; tree < end; ++tree) {
            for (const PendingTransition& t : walks[tree % walks.size()].requests)
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
  return decided.graph();
}

}  // namespace fcswitch::tagger

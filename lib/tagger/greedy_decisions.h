#pragma once
// The decisions of Tagger Algorithm 2 (§5.2) and the sandbox G_tmp it takes them in, apart
// from how the routes are walked (a route list, or destination trees: greedy_tagging.h).
// A decision is per transition (state (endpoint, tag), next endpoint) → new tag, in flat
// arrays: one row per state, one entry per port of its switch plus one for the hosts.

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "tagger/dynamic_topological_order.h"
#include "tagger/tag_rule.h"
#include "tagger/tagged_graph.h"
#include "topology/topology.h"

namespace fcswitch::tagger {

// A transition some route takes at the current hop and no decision covers yet.
struct PendingTransition {
  topology::EndpointId target;
  topology::EndpointId source;
  int tag;
  // Algorithm 1's order (greedy_tagging.h): by endpoint entered, then the one left; the tag
  // only makes the order total (transitions of different tags meet in different sandboxes).
  friend auto operator<=>(const PendingTransition&, const PendingTransition&) = default;
};

class GreedyDecisions {
 public:
  static constexpr int kUndecided = -1;
  static constexpr int kPending = -2;  // wanted at the current hop, see pend()

  explicit GreedyDecisions(const topology::Topology& topo);

  // The tag a packet with `tag` at `at` leaves with towards `next`; kUndecided or kPending
  // while undecided.
  int new_tag(topology::EndpointId at, int tag, topology::EndpointId next) const {
    return new_tag_by_slot(at, tag, slot(next));
  }
  // The same by the out port of `at`'s switch towards `next`, or hosts_slot() for its hosts
  // (a caller that knows the port saves looking it up from `next`).
  int new_tag_by_slot(topology::EndpointId at, int tag, int out_slot) const {
    if (tag >= static_cast<int>(rows_.size())) return kUndecided;
    const int32_t row = rows_[tag][at];
    return row < 0 ? kUndecided : new_tags_[row + out_slot];
  }
  int hosts_slot(int sw) const { return hosts_slot_[sw]; }
  // Marks an undecided transition kPending; false when it was decided or pending already, so
  // that each goes into a hop's list once.
  bool pend(const PendingTransition& t);

  // Decides one hop's transitions (any order, repeats allowed; sorted here): each keeps its
  // tag unless adding it to G_tag closes a cycle, then the tag goes up by one (Tagger
  // Algorithm 2, lines 4–14).
  // `decided(fraction)` now and then: the sandbox is the one part that cannot be split.
  void decide(std::vector<PendingTransition>& pending,
              const std::function<void(double fraction)>& decided = {});

  // Every decision as an edge (at, tag) → (next, new tag).
  TaggedGraph graph() const;
  // The decisions at switch `sw` as (tag, in port, out port, new tag) triples, unsorted: what
  // rules_from_graph(graph()) gives `sw` before settling, without building the graph (10 000
  // switches: 2.6·10^7 edges) or holding every switch's triples (6·10^7) at once.
  std::vector<RuleTriple> rule_triples(int sw) const;
  // Frees the sandboxes, once the last hop is decided: only the decisions are read after.
  void drop_sandboxes() { sandboxes_.clear(); }

 private:
  // Each tag's G_tag over switch ingress endpoints.
  struct Sandbox {
    DynamicTopologicalOrder order;
    std::vector<int> node;  // endpoint → node of `order`, -1 none yet
    int node_of(topology::EndpointId e);
  };

  // Entries of a state's row: the port towards `next`, or past the ports for the hosts.
  int slot(topology::EndpointId next) const {
    return topo_.is_hosts(next) ? hosts_slot_[topo_.sender_switch(next)] : topo_.sender_port(next);
  }
  int32_t row(topology::EndpointId at, int tag);  // added when new

  const topology::Topology& topo_;
  std::vector<int> hosts_slot_;                      // switch → its ports' count
  std::vector<std::vector<int32_t>> rows_;           // [tag][endpoint] → first entry, -1 none
  std::vector<int16_t> new_tags_;                    // the rows; -1 undecided
  std::vector<std::unique_ptr<Sandbox>> sandboxes_;  // by tag
};

}  // namespace fcswitch::tagger

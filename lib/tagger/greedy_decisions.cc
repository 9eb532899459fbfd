#include "tagger/greedy_decisions.h"

#include <algorithm>
#include <stdexcept>

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::Topology;

int GreedyDecisions::Sandbox::node_of(EndpointId e) {
  if (node[e] < 0) node[e] = order.add_node();
  return node[e];
}

GreedyDecisions::GreedyDecisions(const Topology& topo) : topo_(topo) {
  for (const auto& s : topo.all()) hosts_slot_.push_back(static_cast<int>(s.ports.size()));
}

int32_t GreedyDecisions::row(EndpointId at, int tag) {
  if (tag > INT16_MAX) throw std::overflow_error("Algorithm 2: more than 32767 tags");
  while (static_cast<int>(rows_.size()) <= tag) rows_.emplace_back(topo_.endpoints(), -1);
  int32_t& r = rows_[tag][at];
  if (r < 0) {
    r = static_cast<int32_t>(new_tags_.size());
    new_tags_.resize(new_tags_.size() + hosts_slot_[topo_.switch_of(at)] + 1, kUndecided);
  }
  return r;
}

bool GreedyDecisions::pend(const PendingTransition& t) {
  int16_t& entry = new_tags_[row(t.source, t.tag) + slot(t.target)];
  if (entry != kUndecided) return false;
  entry = kPending;
  return true;
}

void GreedyDecisions::decide(std::vector<PendingTransition>& pending,
                             const std::function<void(double fraction)>& decided) {
  std::sort(pending.begin(), pending.end());
  pending.erase(std::unique(pending.begin(), pending.end()), pending.end());
  for (size_t i = 0; i < pending.size(); ++i) {
    if (decided && i % 4096 == 0) decided(static_cast<double>(i) / pending.size());
    const PendingTransition& p = pending[i];
    int new_tag = p.tag;
    // A delivery closes no cycle (the hosts forward nothing), nor does a first hop: nothing
    // enters a host-facing port, so no cycle passes through it and G_tmp need not hold it.
    if (!topo_.is_hosts(p.target) && !topo_.faces_host(p.source)) {
      while (static_cast<int>(sandboxes_.size()) <= p.tag) sandboxes_.push_back(nullptr);
      auto& box = sandboxes_[p.tag];
      if (!box) {
        box = std::make_unique<Sandbox>();
        box->node.assign(topo_.endpoints(), -1);
      }
      // Tagger Algorithm 2, line 7: the edge keeps tag x unless G_tmp (here G_x) gets a cycle.
      if (!box->order.add_edge(box->node_of(p.source), box->node_of(p.target))) new_tag = p.tag + 1;
    }
    new_tags_[row(p.source, p.tag) + slot(p.target)] = static_cast<int16_t>(new_tag);
  }
}

TaggedGraph GreedyDecisions::graph() const {
  TaggedGraph graph;
  for (int tag = 0; tag < static_cast<int>(rows_.size()); ++tag)
    for (EndpointId at = 0; at < topo_.endpoints(); ++at) {
      const int32_t r = rows_[tag][at];
      if (r < 0) continue;
      const int sw = topo_.switch_of(at);
      const int from = graph.node(at, tag);
      for (int port = 0; port <= hosts_slot_[sw]; ++port) {
        const int16_t new_tag = new_tags_[r + port];
        if (new_tag < 0) continue;  // no route took it
        const EndpointId next =
            port == hosts_slot_[sw] ? topo_.at(sw).hosts : topo_.far_end(sw, port);
        graph.add_edge(from, graph.node(next, new_tag));
      }
    }
  return graph;
}

}  // namespace fcswitch::tagger

namespace fcswitch::tagger {

std::vector<RuleTriple> GreedyDecisions::rule_triples(int sw) const {
  const auto& s = topo_.at(sw);
  if (static_cast<int>(s.ports.size()) > kMaxRulePorts)
    throw std::invalid_argument(s.name + " has more than 64 ports");
  std::vector<RuleTriple> triples;
  const int ports = hosts_slot_[sw];
  for (int tag = 0; tag < static_cast<int>(rows_.size()); ++tag)
    for (int in = 0; in < ports; ++in) {
      const EndpointId at = topo_.ingress(sw, in);
      const int32_t r = rows_[tag][at];
      if (r < 0) continue;
      // A source endpoint stands for every host port; the hosts slot for every host port.
      const bool from_hosts = topo_.faces_host(at);
      for (int slot = 0; slot <= ports; ++slot) {
        const int new_tag = new_tags_[r + slot];
        if (new_tag < 0) continue;  // no route took it
        auto add = [&](int out) {
          if (from_hosts) {
            for (int i : s.host_ports)
              if (i != out) triples.push_back({tag, i, out, new_tag});
          } else if (in != out) {
            triples.push_back({tag, in, out, new_tag});
          }
        };
        if (slot == ports) {
          for (int out : s.host_ports) add(out);
        } else {
          add(slot);
        }
      }
    }
  return triples;
}

}  // namespace fcswitch::tagger

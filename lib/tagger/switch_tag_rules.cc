#include "tagger/switch_tag_rules.h"

#include <algorithm>
#include <stdexcept>

namespace fcswitch::tagger {

using topology::Topology;

size_t SwitchTagRules::max_triples() const {
  size_t most = 0;
  for (const auto& t : triples) most = std::max(most, t.size());
  return most;
}

size_t SwitchTagRules::max_compressed() const {
  size_t most = 0;
  for (size_t sw = 0; sw < triples.size(); ++sw)
    most = std::max(most, compressed(static_cast<int>(sw)).size());
  return most;
}

void settle_switch(const Topology& topo, int sw, std::vector<RuleTriple>& list,
                   std::vector<std::string>& conflicts) {
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
  for (size_t i = 1; i < list.size(); ++i) {
    const RuleTriple& a = list[i - 1];
    const RuleTriple& b = list[i];
    if (a.tag == b.tag && a.in_port == b.in_port && a.out_port == b.out_port) {
      const auto& s = topo.at(sw);
      conflicts.push_back(s.name + ": tag " + std::to_string(a.tag) + " from " +
                          s.ports[a.in_port].name + " to " + s.ports[a.out_port].name + " → " +
                          std::to_string(a.new_tag) + " and " + std::to_string(b.new_tag));
    }
  }
}

void settle(const Topology& topo, SwitchTagRules& rules) {
  for (size_t sw = 0; sw < rules.triples.size(); ++sw)
    settle_switch(topo, static_cast<int>(sw), rules.triples[sw], rules.conflicts);
}

SwitchTagRules rules_from_graph(const Topology& topo, const TaggedGraph& graph) {
  SwitchTagRules rules;
  rules.triples.resize(topo.switches());
  for (const auto& [from, to] : graph.edges()) {
    const TaggedNode& a = graph.at(from);
    const TaggedNode& b = graph.at(to);
    const int sw = topo.switch_of(a.endpoint);
    const auto& s = topo.at(sw);
    if (static_cast<int>(s.ports.size()) > kMaxRulePorts)
      throw std::invalid_argument(s.name + " has more than 64 ports");
    // A source endpoint stands for every host port; the hosts endpoint for every host port.
    std::vector<int> ins{topo.port_of(a.endpoint)};
    if (topo.faces_host(a.endpoint)) ins = s.host_ports;
    std::vector<int> outs{topo.sender_port(b.endpoint)};
    if (topo.is_hosts(b.endpoint)) outs = s.host_ports;
    for (int i : ins)
      for (int o : outs)
        if (i != o) rules.triples[sw].push_back({a.tag, i, o, b.tag});
  }
  settle(topo, rules);
  return rules;
}

}  // namespace fcswitch::tagger

#include "tagger/clos_bounce_tagging.h"

#include <stdexcept>

#include "tagger/brute_force_tagging.h"

namespace fcswitch::tagger {

using topology::PeerKind;
using topology::Topology;

SwitchTagRules clos_bounce_rules(const Topology& topo, int bounces) {
  if (bounces < 0) throw std::invalid_argument("bounces must be >= 0");
  SwitchTagRules rules;
  rules.triples.resize(topo.switches());
  const int last_tag = kFirstTag + bounces;
  for (int sw = 0; sw < topo.switches(); ++sw) {
    const auto& s = topo.at(sw);
    if (s.tier < 0) throw std::invalid_argument("the Clos scheme needs switch tiers: " + s.name);
    const int ports = static_cast<int>(s.ports.size());
    // A port faces up when its peer is a switch of a higher tier.
    auto faces_up = [&](int p) {
      return s.ports[p].peer == PeerKind::kSwitch && topo.at(s.ports[p].peer_switch).tier > s.tier;
    };
    for (int in = 0; in < ports; ++in) {
      if (s.ports[in].peer == PeerKind::kNone) continue;
      const bool from_host = s.ports[in].peer == PeerKind::kHost;
      const int top = from_host ? kFirstTag : last_tag;
      for (int tag = kFirstTag; tag <= top; ++tag) {
        for (int out = 0; out < ports; ++out) {
          if (out == in || s.ports[out].peer == PeerKind::kNone) continue;
          // Came down (arrived on an up-facing port) and goes up again: a bounce.
          const bool bounce = faces_up(in) && faces_up(out);
          const int new_tag = bounce ? tag + 1 : tag;
          if (new_tag > last_tag) continue;  // one bounce too many: lossy
          rules.triples[sw].push_back({tag, in, out, new_tag});
        }
      }
    }
  }
  settle(topo, rules);
  return rules;
}

}  // namespace fcswitch::tagger

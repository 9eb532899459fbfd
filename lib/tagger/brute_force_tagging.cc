#include "tagger/brute_force_tagging.h"

#include <algorithm>
#include <stdexcept>

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::Topology;

EndpointId source_endpoint(const Topology& topo, int from) {
  const auto& s = topo.at(from);
  if (s.host_ports.empty())
    throw std::invalid_argument("route from " + s.name + ", which has no hosts");
  return topo.ingress(from, s.host_ports.front());
}

TaggedGraph brute_force_tagging(const Topology& topo, const RouteSource& routes,
                                ElpSummary* summary) {
  TaggedGraph graph;
  ElpSummary seen;
  routes([&](int from, std::span<const EndpointId> hops) {
    ++seen.routes;
    seen.longest_switches = std::max(seen.longest_switches, static_cast<int>(hops.size()) + 1);
    int tag = kFirstTag;
    int last = graph.node(source_endpoint(topo, from), tag);
    for (EndpointId hop : hops) {
      const int here = graph.node(hop, ++tag);
      graph.add_edge(last, here);
      last = here;
    }
    const int final_switch = hops.empty() ? from : topo.switch_of(hops.back());
    graph.add_edge(last, graph.node(topo.at(final_switch).hosts, ++tag));
  });
  if (summary) *summary = seen;
  return graph;
}

}  // namespace fcswitch::tagger

#include "tagger/elp_coverage.h"

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::Topology;

ElpCoverage check_elp_coverage(const Topology& topo, const std::vector<TagRewriteTable>& tables,
                               const RouteSource& routes) {
  ElpCoverage coverage;
  routes([&](int from, std::span<const EndpointId> hops) {
    ++coverage.routes;
    // Every host port of `from` sends with the first tag; they share the rules' in-port set
    // only when they are equivalent, so walk from each.
    for (int host_port : topo.at(from).host_ports) {
      int tag = kFirstTag;
      int sw = from;
      int in = host_port;
      std::string missing;
      // The tag the packet leaves by `out` with; -1 when no rule covers it.
      auto next_tag = [&](int out) {
        const uint16_t r = tables[sw].rule_index(tag, in, out);
        if (r != TagRewriteTable::kNoRule) return tables[sw].rule(r).new_tag;
        missing = "no rule for tag " + std::to_string(tag) + " at " + topo.at(sw).name + " from " +
                  topo.at(sw).ports[in].name + " to " + topo.at(sw).ports[out].name;
        return -1;
      };
      bool lossless = true;
      for (EndpointId hop : hops) {
        tag = next_tag(topo.sender_port(hop));
        if (tag < 0) {
          lossless = false;
          break;
        }
        sw = topo.switch_of(hop);
        in = topo.port_of(hop);
      }
      if (lossless)
        for (int out : topo.at(sw).host_ports)
          if (out != in && next_tag(out) < 0) {
            lossless = false;
            break;
          }
      if (!lossless) {
        if (coverage.demoted++ == 0) {
          coverage.first_demoted = topo.at(from).name;
          for (EndpointId hop : hops) coverage.first_demoted += " → " + topo.endpoint_name(hop);
          coverage.first_demoted += " (" + missing + ")";
        }
        break;
      }
    }
  });
  return coverage;
}

}  // namespace fcswitch::tagger

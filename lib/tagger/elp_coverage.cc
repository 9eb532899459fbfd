#include "tagger/elp_coverage.h"

#include <algorithm>
#include <bit>

namespace fcswitch::tagger {

using topology::EndpointId;
using topology::Topology;

namespace {

// Walks a route from each host port of `from`: the first hop no rule covers, or "" when
// every walk stays lossless.
std::string first_missing(const Topology& topo, const std::vector<TagRewriteTable>& tables,
                          int from, std::span<const EndpointId> hops) {
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
        if (out != in && next_tag(out) < 0) break;
    if (!missing.empty()) return missing;
  }
  return "";
}

void count_demoted(ElpCoverage& coverage, const Topology& topo, int from,
                   std::span<const EndpointId> hops, const std::string& missing) {
  if (coverage.demoted++ > 0) return;
  coverage.first_demoted = topo.at(from).name;
  for (EndpointId hop : hops) coverage.first_demoted += " → " + topo.endpoint_name(hop);
  coverage.first_demoted += " (" + missing + ")";
}

using TagMask = uint64_t;  // bit t: tag t (rewrite tables hold tags 0 … 63)

// What every route of a tree shares, by switch: the first hop out of a port from all host
// ports (the tags it leaves with; a host port without a rule), and a delivery to a switch's
// own hosts from its host ports.
struct FirstHops {
  std::vector<TagMask> tags;  // by the port's ingress endpoint id
  std::vector<char> missing;
  std::vector<char> local_ok;  // by switch: hosts to hosts on it stay lossless

  FirstHops(const Topology& topo, const std::vector<TagRewriteTable>& tables)
      : tags(topo.switch_ports(), 0), missing(topo.switch_ports(), 0), local_ok(topo.switches()) {
    for (int sw = 0; sw < topo.switches(); ++sw) {
      const auto& s = topo.at(sw);
      local_ok[sw] = 1;
      for (int out = 0; out < static_cast<int>(s.ports.size()); ++out)
        for (int in : s.host_ports) {
          if (in == out) continue;
          const uint16_t r = tables[sw].rule_index(kFirstTag, in, out);
          const EndpointId e = topo.ingress(sw, out);
          if (r == TagRewriteTable::kNoRule) {
            missing[e] = 1;
            if (topo.faces_host(e)) local_ok[sw] = 0;
          } else {
            tags[e] |= TagMask{1} << tables[sw].rule(r).new_tag;
          }
        }
    }
  }
};

// One tree's routes, on any thread: whether a packet that left switch v towards the root
// with tag t gets there lossless, remembered per (v, t) so that the routes through v share it.
class TreeCoverage {
 public:
  explicit TreeCoverage(int switches) : known_(switches, 0), ok_(switches, 0) {}

  void check(const Topology& topo, const std::vector<TagRewriteTable>& tables,
             const DestinationTrees& trees, const FirstHops& first, int tree) {
    routes = demoted = 0;
    first_demoted = -1;
    for (int from : trees.destinations()) {
      if (!trees.routes_from(tree, from)) continue;
      ++routes;
      bool lossless = true;
      if (from == trees.destinations()[tree]) {
        lossless = first.local_ok[from];
      } else {
        const EndpointId out = topo.ingress(from, trees.port_towards(tree, from));
        lossless = !first.missing[out];
        for (TagMask rest = first.tags[out]; lossless && rest; rest &= rest - 1)
          lossless = delivered(topo, tables, trees, tree, from, std::countr_zero(rest));
      }
      if (!lossless && demoted++ == 0) first_demoted = from;
    }
    for (int v : touched_) known_[v] = ok_[v] = 0;
    touched_.clear();
  }

  uint64_t routes = 0, demoted = 0;
  int first_demoted = -1;

 private:
  bool delivered(const Topology& topo, const std::vector<TagRewriteTable>& tables,
                 const DestinationTrees& trees, int tree, int v, int tag) {
    const TagMask bit = TagMask{1} << tag;
    if (known_[v] & bit) return ok_[v] & bit;
    const EndpointId at = trees.next_hop(tree, v);
    const int w = topo.switch_of(at);
    const int in = topo.port_of(at);
    bool ok = true;
    if (w == trees.destinations()[tree]) {
      for (int out : topo.at(w).host_ports)
        if (out != in && tables[w].rule_index(tag, in, out) == TagRewriteTable::kNoRule) ok = false;
    } else {
      const uint16_t r = tables[w].rule_index(tag, in, trees.port_towards(tree, w));
      ok = r != TagRewriteTable::kNoRule &&
           delivered(topo, tables, trees, tree, w, tables[w].rule(r).new_tag);
    }
    if (!known_[v]) touched_.push_back(v);
    known_[v] |= bit;
    if (ok) ok_[v] |= bit;
    return ok;
  }

  std::vector<TagMask> known_, ok_;
  std::vector<int> touched_;
};

}  // namespace

ElpCoverage check_elp_coverage(const Topology& topo, const std::vector<TagRewriteTable>& tables,
                               const RouteSource& routes) {
  ElpCoverage coverage;
  routes([&](int from, std::span<const EndpointId> hops) {
    ++coverage.routes;
    if (const std::string missing = first_missing(topo, tables, from, hops); !missing.empty())
      count_demoted(coverage, topo, from, hops, missing);
  });
  return coverage;
}

ElpCoverage check_elp_coverage(const Topology& topo, const std::vector<TagRewriteTable>& tables,
                               const DestinationTrees& trees, const ParallelWork& work) {
  const FirstHops first(topo, tables);
  std::vector<TreeCoverage> slots(std::max<size_t>(work.batch, 1), TreeCoverage(topo.switches()));
  ElpCoverage coverage;
  run_in_batches(
      work, static_cast<size_t>(trees.trees()),
      [&](size_t tree) {
        slots[tree % slots.size()].check(topo, tables, trees, first, static_cast<int>(tree));
      },
      [&](size_t first_tree, size_t end) {
        for (size_t tree = first_tree; tree < end; ++tree) {
          const TreeCoverage& c = slots[tree % slots.size()];
          coverage.routes += c.routes;
          if (c.demoted == 0) continue;
          // The first route demoted, in the route walk's order, named as it would name it.
          if (coverage.demoted == 0) {
            const auto hops = trees.hops(static_cast<int>(tree), c.first_demoted);
            count_demoted(coverage, topo, c.first_demoted, hops,
                          first_missing(topo, tables, c.first_demoted, hops));
            coverage.demoted += c.demoted - 1;
          } else {
            coverage.demoted += c.demoted;
          }
        }
      },
      0, static_cast<double>(trees.trees()));
  return coverage;
}

}  // namespace fcswitch::tagger

#include "tagger/elp_coverage.h"

#include <algorithm>
#include <array>
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

// Trees whose routes are walked together (GroupCoverage).
constexpr size_t kCoverageGroup = 512;

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

// The tags the rules use, numbered: a group's masks take a byte a switch while there are at
// most 8 of them (Jellyfish: 3), not a 64-bit word (10 MB against 80 MB a group of 512
// trees at 10 000 switches).
struct TagBits {
  std::array<int, 64> bit_of{};  // tag → bit, -1 unused
  std::vector<int> tag_of;       // bit → tag

  explicit TagBits(const std::vector<TagRewriteTable>& tables) {
    TagMask used = TagMask{1} << kFirstTag;
    for (const TagRewriteTable& t : tables) used |= t.matched_tags() | t.written_tags();
    bit_of.fill(-1);
    for (TagMask rest = used; rest; rest &= rest - 1) {
      bit_of[std::countr_zero(rest)] = static_cast<int>(tag_of.size());
      tag_of.push_back(std::countr_zero(rest));
    }
  }
  template <class Mask>
  Mask mask(TagMask tags) const {
    Mask out = 0;
    for (TagMask rest = tags; rest; rest &= rest - 1)
      if (const int b = bit_of[std::countr_zero(rest)]; b >= 0) out |= Mask{1} << b;
    return out;
  }
};

// Whether any route of a group of trees is demoted, walked as Algorithm 2's tree walk is
// (greedy_tagging.cc): kGroup trees together, hop by hop, switch by switch, the routes that
// left a switch with the same tag as one. At a switch v the rules read are those of its
// neighbours' ports facing v, a few kB read by every tree of the group, where one tree after
// another read rules all over the tables (2.4·10^8 bytes at 10 000 switches) and waited on
// memory for nearly each (26 CPU seconds then). Trees it finds a demoted route in are walked
// again by TreeCoverage, for the count and the first.
template <class Mask>
class GroupCoverage {
 public:
  GroupCoverage(const Topology& topo, const std::vector<TagRewriteTable>& tables,
                const DestinationTrees& trees, const FirstHops& first_hops)
      : topo_(topo),
        tables_(tables),
        trees_(trees),
        first_hops_(first_hops),
        bits_(tables),
        switches_(static_cast<size_t>(topo.switches())) {
    first_tags_.reserve(first_hops.tags.size());
    for (TagMask tags : first_hops.tags) first_tags_.push_back(bits_.mask<Mask>(tags));
    // By ingress endpoint: the tags delivered from there to its switch's hosts (every host
    // port but its own has a rule: what delivered() asks at the root).
    delivery_.assign(topo.switch_ports(), 0);
    for (int sw = 0; sw < topo.switches(); ++sw) {
      const auto& s = topo.at(sw);
      for (int in = 0; in < static_cast<int>(s.ports.size()); ++in) {
        Mask ok = 0;
        for (size_t b = 0; b < bits_.tag_of.size(); ++b) {
          bool all = true;
          for (int out : s.host_ports)
            if (out != in &&
                tables[sw].rule_index(bits_.tag_of[b], in, out) == TagRewriteTable::kNoRule)
              all = false;
          if (all) ok |= Mask{1} << b;
        }
        delivery_[topo.ingress(sw, in)] = ok;
      }
    }
  }

  // Masks for one group at a time (per thread).
  struct Scratch {
    std::vector<Mask> left, next;  // [tree − first][switch]: tags of routes that left it
    std::vector<char> failed;      // per tree of the group: some route demoted
    std::vector<uint64_t> routes;  // per tree of the group
  };
  Scratch scratch() const {
    return {std::vector<Mask>(kCoverageGroup * switches_, 0),
            std::vector<Mask>(kCoverageGroup * switches_, 0),
            {},
            {}};
  }

  void check(Scratch& s, int first, int end) const {
    s.failed.assign(kCoverageGroup, 0);
    s.routes.assign(kCoverageGroup, 0);
    const std::vector<int>& roots = trees_.destinations();
    bool any = false;
    // Hop 0: every source's first hop, from all its host ports.
    for (int from : roots)
      for (int tree = first; tree < end; ++tree) {
        if (!trees_.routes_from(tree, from)) continue;
        ++s.routes[tree - first];
        if (from == roots[tree]) {
          if (!first_hops_.local_ok[from]) s.failed[tree - first] = 1;
          continue;
        }
        const EndpointId out = topo_.ingress(from, trees_.port_towards(tree, from));
        if (first_hops_.missing[out]) s.failed[tree - first] = 1;
        s.left[(tree - first) * switches_ + from] = first_tags_[out];
        any = true;
      }
    // Hop by hop until every route has reached its root's hosts.
    while (any) {
      any = false;
      for (size_t v = 0; v < switches_; ++v)
        for (int tree = first; tree < end; ++tree) {
          const size_t row = (tree - first) * switches_;
          const Mask tags = s.left[row + v];
          if (!tags) continue;
          s.left[row + v] = 0;
          const EndpointId at = trees_.next_hop(tree, static_cast<int>(v));
          const int w = topo_.switch_of(at);
          if (w == roots[tree]) {
            if (tags & ~delivery_[at]) s.failed[tree - first] = 1;
            continue;
          }
          const int in = topo_.port_of(at);
          const int out = trees_.port_towards(tree, w);
          for (uint64_t rest = tags; rest; rest &= rest - 1) {
            const uint16_t r = tables_[w].rule_index(bits_.tag_of[std::countr_zero(rest)], in, out);
            const int bit =
                r == TagRewriteTable::kNoRule ? -1 : bits_.bit_of[tables_[w].rule(r).new_tag];
            if (bit < 0) {
              s.failed[tree - first] = 1;
            } else {
              s.next[row + w] |= static_cast<Mask>(Mask{1} << bit);
              any = true;
            }
          }
        }
      std::swap(s.left, s.next);
    }
  }

 private:
  const Topology& topo_;
  const std::vector<TagRewriteTable>& tables_;
  const DestinationTrees& trees_;
  const FirstHops& first_hops_;
  TagBits bits_;
  size_t switches_;
  std::vector<Mask> first_tags_, delivery_;  // by ingress endpoint
};

// Each tree's verdict: routes, how many demoted and the first (a source switch).
struct TreeVerdict {
  uint64_t routes = 0, demoted = 0;
  int first_demoted = -1;
};

template <class Mask>
ElpCoverage coverage_by_groups(const Topology& topo, const std::vector<TagRewriteTable>& tables,
                               const DestinationTrees& trees, const ParallelWork& work) {
  const FirstHops first_hops(topo, tables);
  const GroupCoverage<Mask> walk(topo, tables, trees, first_hops);
  const size_t groups = (static_cast<size_t>(trees.trees()) + kCoverageGroup - 1) / kCoverageGroup;
  // Groups are the tasks, a few at a time between merges; progress is still in trees.
  ParallelWork grouped = work;
  grouped.batch = std::clamp<size_t>(work.batch / 16, 1, 4);
  grouped.progress = [&](double done, double) {
    work.report(std::min(done * kCoverageGroup, static_cast<double>(trees.trees())), trees.trees());
  };
  struct Slot {
    typename GroupCoverage<Mask>::Scratch masks;
    TreeCoverage exact;
    std::vector<TreeVerdict> verdicts;  // of the group's trees
  };
  std::vector<Slot> slots;
  for (size_t i = 0; i < grouped.batch; ++i)
    slots.push_back({walk.scratch(), TreeCoverage(topo.switches()), {}});
  ElpCoverage coverage;
  run_in_batches(
      grouped, groups,
      [&](size_t group) {
        Slot& slot = slots[group % slots.size()];
        const int first = static_cast<int>(group * kCoverageGroup);
        const int end = std::min(trees.trees(), first + static_cast<int>(kCoverageGroup));
        walk.check(slot.masks, first, end);
        slot.verdicts.assign(end - first, TreeVerdict{});
        for (int tree = first; tree < end; ++tree) {
          TreeVerdict& verdict = slot.verdicts[tree - first];
          verdict.routes = slot.masks.routes[tree - first];
          if (!slot.masks.failed[tree - first]) continue;
          slot.exact.check(topo, tables, trees, first_hops, tree);
          verdict = {slot.exact.routes, slot.exact.demoted, slot.exact.first_demoted};
        }
      },
      [&](size_t first_group, size_t end_group) {
        for (size_t group = first_group; group < end_group; ++group) {
          const Slot& slot = slots[group % slots.size()];
          for (size_t i = 0; i < slot.verdicts.size(); ++i) {
            const TreeVerdict& c = slot.verdicts[i];
            const int tree = static_cast<int>(group * kCoverageGroup + i);
            coverage.routes += c.routes;
            if (c.demoted == 0) continue;
            // The first route demoted, in the route walk's order, named as it would name it.
            if (coverage.demoted == 0) {
              const auto hops = trees.hops(tree, c.first_demoted);
              count_demoted(coverage, topo, c.first_demoted, hops,
                            first_missing(topo, tables, c.first_demoted, hops));
              coverage.demoted += c.demoted - 1;
            } else {
              coverage.demoted += c.demoted;
            }
          }
        }
      },
      0, static_cast<double>(groups));
  return coverage;
}

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
  if (TagBits(tables).tag_of.size() <= 8)
    return coverage_by_groups<uint8_t>(topo, tables, trees, work);
  return coverage_by_groups<uint64_t>(topo, tables, trees, work);
}

}  // namespace fcswitch::tagger

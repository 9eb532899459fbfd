#pragma once
// One Tagger match-action rule (§7, Fig. 7 and 9): packets with `tag` that arrived on a port
// of `in_ports` and leave by a port of `out_ports` get `new_tag`. The port sets are the TCAM's
// port bitmaps (bit i = port i), so one rule can stand for many (tag, in, out) triples.

#include <bit>
#include <cstdint>
#include <vector>

namespace fcswitch::tagger {

using PortMask = uint64_t;
inline constexpr int kMaxRulePorts = 64;
inline constexpr int kMaxTag = 63;  // the tag is the DSCP: six bits

struct TagRule {
  int tag = 0;
  PortMask in_ports = 0;
  PortMask out_ports = 0;
  int new_tag = 0;
  friend bool operator==(const TagRule&, const TagRule&) = default;
};

// One (tag, in, out) → new tag: a rule before compression (Tables 3 and 4 list these).
struct RuleTriple {
  int tag = 0;
  int in_port = 0;
  int out_port = 0;
  int new_tag = 0;
  friend auto operator<=>(const RuleTriple&, const RuleTriple&) = default;
};

inline PortMask port_bit(int port) {
  return PortMask{1} << port;
}
inline int port_count(PortMask mask) {
  return std::popcount(mask);
}

// Every triple a rule stands for.
std::vector<RuleTriple> expand(const TagRule& rule);

// Joint aggregation of InPort and OutPort (§7 "Rule compression"): triples with the same
// (tag, new tag, out port) share an InPort bitmap, then rules with the same (tag, new tag,
// InPort bitmap) share an OutPort bitmap. Sorted by tag, then new tag.
std::vector<TagRule> compress(std::vector<RuleTriple> triples);

}  // namespace fcswitch::tagger

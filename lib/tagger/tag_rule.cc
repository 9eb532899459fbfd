#include "tagger/tag_rule.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace fcswitch::tagger {

std::vector<RuleTriple> expand(const TagRule& rule) {
  std::vector<RuleTriple> out;
  for (int i = 0; i < kMaxRulePorts; ++i) {
    if (!(rule.in_ports & port_bit(i))) continue;
    for (int o = 0; o < kMaxRulePorts; ++o)
      if (rule.out_ports & port_bit(o)) out.push_back({rule.tag, i, o, rule.new_tag});
  }
  return out;
}

std::vector<TagRule> compress(std::vector<RuleTriple> triples) {
  std::sort(triples.begin(), triples.end());
  triples.erase(std::unique(triples.begin(), triples.end()), triples.end());
  std::map<std::tuple<int, int, int>, PortMask> in_by_out;  // (tag, new, out) → ins
  for (const RuleTriple& t : triples)
    in_by_out[{t.tag, t.new_tag, t.out_port}] |= port_bit(t.in_port);
  std::map<std::tuple<int, int, PortMask>, PortMask> out_by_in;  // (tag, new, ins) → outs
  for (const auto& [key, ins] : in_by_out) {
    const auto& [tag, new_tag, out] = key;
    out_by_in[{tag, new_tag, ins}] |= port_bit(out);
  }
  std::vector<TagRule> rules;
  for (const auto& [key, outs] : out_by_in) {
    const auto& [tag, new_tag, ins] = key;
    rules.push_back({tag, ins, outs, new_tag});
  }
  return rules;
}

}  // namespace fcswitch::tagger

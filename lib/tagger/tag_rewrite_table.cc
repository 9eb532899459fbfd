#include "tagger/tag_rewrite_table.h"

#include <stdexcept>

namespace fcswitch::tagger {

std::optional<TagRewriteTable> TagRewriteTable::build(int ports, std::span<const TagRule> rules,
                                                      std::vector<std::string>& problems,
                                                      std::span<const std::string> port_names) {
  auto port_name = [&](int p) {
    return p < static_cast<int>(port_names.size()) ? port_names[p] : "port " + std::to_string(p);
  };
  const size_t before = problems.size();
  TagRewriteTable table;
  table.ports_ = ports;
  table.rules_.assign(rules.begin(), rules.end());
  table.tag_row_.fill(-1);
  if (ports < 1 || ports > kMaxRulePorts) {
    problems.push_back("a switch with " + std::to_string(ports) + " ports (1 to 64 supported)");
    return std::nullopt;
  }
  const PortMask valid = ports == 64 ? ~PortMask{0} : port_bit(ports) - 1;
  int rows = 0;
  for (size_t r = 0; r < rules.size(); ++r) {
    const TagRule& rule = rules[r];
    const std::string name = "rule " + std::to_string(r);
    if (rule.tag < 0 || rule.tag > kMaxTag || rule.new_tag < 0 || rule.new_tag > kMaxTag) {
      problems.push_back(name + ": tags are DSCP values in [0, 63]");
      continue;
    }
    if ((rule.in_ports | rule.out_ports) & ~valid) {
      problems.push_back(name + ": names a port the switch does not have (it has " +
                         std::to_string(ports) + ")");
      continue;
    }
    if (table.tag_row_[rule.tag] < 0) table.tag_row_[rule.tag] = static_cast<int8_t>(rows++);
    table.matched_ |= uint64_t{1} << rule.tag;
    table.written_ |= uint64_t{1} << rule.new_tag;
  }
  if (problems.size() != before) return std::nullopt;
  table.entries_.assign(static_cast<size_t>(rows) * ports * ports, kNoRule);
  for (size_t r = 0; r < rules.size(); ++r) {
    const TagRule& rule = rules[r];
    const int row = table.tag_row_[rule.tag];
    for (const RuleTriple& t : expand(rule)) {
      uint16_t& entry =
          table.entries_[(static_cast<size_t>(row) * ports + t.in_port) * ports + t.out_port];
      if (entry != kNoRule && table.rules_[entry].new_tag != rule.new_tag) {
        problems.push_back("rule " + std::to_string(r) + " and rule " + std::to_string(entry) +
                           " both match tag " + std::to_string(rule.tag) + " from " +
                           port_name(t.in_port) + " to " + port_name(t.out_port) +
                           " but rewrite it to " + std::to_string(rule.new_tag) + " and " +
                           std::to_string(table.rules_[entry].new_tag));
        continue;
      }
      if (entry == kNoRule) entry = static_cast<uint16_t>(r);
    }
  }
  if (problems.size() != before) return std::nullopt;
  return table;
}

std::vector<TagRewriteTable> rewrite_tables(const std::vector<int>& ports_per_switch,
                                            const std::vector<std::vector<TagRule>>& rules) {
  std::vector<TagRewriteTable> tables;
  for (size_t sw = 0; sw < rules.size(); ++sw) {
    std::vector<std::string> problems;
    auto table = TagRewriteTable::build(ports_per_switch.at(sw), rules[sw], problems);
    if (!table)
      throw std::invalid_argument("switch " + std::to_string(sw) + ": " + problems.front());
    tables.push_back(std::move(*table));
  }
  return tables;
}

}  // namespace fcswitch::tagger

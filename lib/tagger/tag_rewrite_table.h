#pragma once
// The rules of one switch expanded into a flat array indexed by (tag, in port, out port): the
// datapath's O(1) lookup (the TCAM of Tagger §7), built once at start-up. Each entry holds the
// index of the rule that decides it, so hits can be counted per rule. A triple no rule covers
// is the catch-all: the lossy tag.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tagger/tag_rule.h"

namespace fcswitch::tagger {

class TagRewriteTable {
 public:
  static constexpr uint16_t kNoRule = 0xFFFF;

  // Fails (problems filled, nullopt) when two rules give one triple different new tags, a
  // rule names a port ≥ `ports`, or a tag is out of [0, 63]. Messages name ports by
  // `port_names` when given, else by index.
  static std::optional<TagRewriteTable> build(int ports, std::span<const TagRule> rules,
                                              std::vector<std::string>& problems,
                                              std::span<const std::string> port_names = {});

  // The rule deciding (tag, in, out), or kNoRule.
  uint16_t rule_index(int tag, int in_port, int out_port) const {
    const int row = tag_row_[tag & kMaxTag];
    if (row < 0) return kNoRule;
    return entries_[(static_cast<size_t>(row) * ports_ + in_port) * ports_ + out_port];
  }
  const TagRule& rule(uint16_t index) const { return rules_[index]; }
  int rules() const { return static_cast<int>(rules_.size()); }
  int ports() const { return ports_; }
  // Tags some rule matches on, and tags some rule writes.
  uint64_t matched_tags() const { return matched_; }
  uint64_t written_tags() const { return written_; }

 private:
  int ports_ = 0;
  std::array<int8_t, kMaxTag + 1> tag_row_{};
  std::vector<uint16_t> entries_;
  std::vector<TagRule> rules_;
  uint64_t matched_ = 0;
  uint64_t written_ = 0;
};

// One table per switch of a topology-sized rule set (tagger-gen and tests). Throws
// std::invalid_argument naming the switch when a table cannot be built.
std::vector<TagRewriteTable> rewrite_tables(const std::vector<int>& ports_per_switch,
                                            const std::vector<std::vector<TagRule>>& rules);

}  // namespace fcswitch::tagger

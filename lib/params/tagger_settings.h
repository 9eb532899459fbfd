#pragma once
// A switch's Tagger settings ([tagger]): the tags' priorities and the rewrite rules
// (switch/fwd/tagger_stage.h applies them in FWD).

#include <array>
#include <cstdint>
#include <vector>

#include "tagger/tag_rule.h"

namespace fcswitch {

struct TaggerSettings {
  std::array<int8_t, 64> tag_priority;  // tag (DSCP) → lossless priority; -1: not a lossless tag
  uint8_t lossy_tag = 0;                // written when no rule matches
  uint8_t lossy_priority = 0;           // ingress class of packets with a tag not in the map
  std::vector<tagger::TagRule> rules;

  TaggerSettings() { tag_priority.fill(-1); }
};

}  // namespace fcswitch

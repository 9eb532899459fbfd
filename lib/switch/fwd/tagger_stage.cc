#include "switch/fwd/tagger_stage.h"

namespace fcswitch {

TaggerStage::TaggerStage(const TaggerSettings& settings, tagger::TagRewriteTable table)
    : settings_(settings),
      table_(std::move(table)),
      hits_(std::make_unique<OwnedCounter[]>(table_.rules() > 0 ? table_.rules() : 1)) {}

TaggerStage::Decision TaggerStage::decide(uint8_t tag, int in_port, int out_port) const {
  Decision decision{.new_tag = settings_.lossy_tag};
  decision.rule = table_.rule_index(tag, in_port, out_port);
  if (decision.rule != tagger::TagRewriteTable::kNoRule) {
    decision.new_tag = static_cast<uint8_t>(table_.rule(decision.rule).new_tag);
    // Config validation: every rule writes a lossless tag.
    decision.queue = static_cast<uint8_t>(settings_.tag_priority[decision.new_tag]);
  }
  return decision;
}

void TaggerStage::apply(const Decision& decision, uint8_t* frame, const wire::FrameHeader& header) {
  count_run(decision, header.dscp, 1);
  rewrite_in_run(decision, frame, header);
}

void TaggerStage::count_run(const Decision& decision, uint8_t tag, uint32_t packets) {
  if (decision.rule != tagger::TagRewriteTable::kNoRule) {
    hits_[decision.rule].add(packets);
  } else if (settings_.tag_priority[tag] >= 0) {
    demoted_.add(packets);
  } else {
    lossy_in_.add(packets);
  }
  if (decision.new_tag != tag) rewrites_.add(packets);
}

}  // namespace fcswitch

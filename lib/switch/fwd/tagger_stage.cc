#include "switch/fwd/tagger_stage.h"

#include "wire/dscp_rewrite.h"

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
  const uint8_t tag = header.dscp;
  if (decision.rule != tagger::TagRewriteTable::kNoRule) {
    hits_[decision.rule].increment();
  } else if (settings_.tag_priority[tag] >= 0) {
    demoted_.increment();
  } else {
    lossy_in_.increment();
  }
  if (decision.new_tag != tag) {
    rewrites_.increment();
    wire::rewrite_dscp(frame, header, decision.new_tag);
  }
}

}  // namespace fcswitch

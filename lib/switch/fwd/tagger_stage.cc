#include "switch/fwd/tagger_stage.h"

#include "wire/dscp_rewrite.h"

namespace fcswitch {

TaggerStage::TaggerStage(const TaggerSettings& settings, tagger::TagRewriteTable table)
    : settings_(settings),
      table_(std::move(table)),
      hits_(std::make_unique<OwnedCounter[]>(table_.rules() > 0 ? table_.rules() : 1)) {}

uint8_t TaggerStage::rewrite(uint8_t* frame, const wire::FrameHeader& header, int in_port,
                             int out_port) {
  const uint8_t tag = header.dscp;
  uint8_t new_tag = settings_.lossy_tag;
  uint8_t queue = kLossyQueue;
  const uint16_t r = table_.rule_index(tag, in_port, out_port);
  if (r != tagger::TagRewriteTable::kNoRule) {
    hits_[r].increment();
    new_tag = static_cast<uint8_t>(table_.rule(r).new_tag);
    // Config validation: every rule writes a lossless tag.
    queue = static_cast<uint8_t>(settings_.tag_priority[new_tag]);
  } else if (settings_.tag_priority[tag] >= 0) {
    demoted_.increment();
  } else {
    lossy_in_.increment();
  }
  if (new_tag != tag) {
    rewrites_.increment();
    wire::rewrite_dscp(frame, header, new_tag);
  }
  return queue;
}

}  // namespace fcswitch

#pragma once
// Tagger in the forwarding path (Tagger §7, Fig. 7): (1) an IP packet's tag (its DSCP) picks
// its lossless ingress queue — the DSCP classifier, whose map the [tagger] config fills from
// the tags; (2) (tag, in port, out port) → new tag by the switch's rules;
// (3) the egress queue is the *new* tag's priority, so that a pause from downstream for that
// priority holds the queue the packet waits in (Fig. 8, the priority-transition fix). No rule:
// the lossy tag and the lossy queue (the TCAM's last, catch-all rule). FWD is the only writer
// of the counters.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/owned_counter.h"
#include "core/traffic_class.h"
#include "params/tagger_settings.h"
#include "tagger/tag_rewrite_table.h"
#include "wire/dscp_rewrite.h"
#include "wire/frame_header.h"

namespace fcswitch {

class TaggerStage {
 public:
  // `table` was built from settings.rules for this switch's ports (config validation did it).
  TaggerStage(const TaggerSettings& settings, tagger::TagRewriteTable table);

  // What steps 2 and 3 do to a packet tagged `tag` from `in_port` to `out_port`: the rule that
  // matched (kNoRule: none), the tag it leaves with and its egress queue. The same for every
  // packet of a run (FwdTask: one tag, ingress and egress), so a run looks it up once.
  struct Decision {
    uint16_t rule = tagger::TagRewriteTable::kNoRule;
    uint8_t new_tag = 0;
    uint8_t queue = kLossyQueue;
  };
  Decision decide(uint8_t tag, int in_port, int out_port) const;
  // Counts the decision for one packet (tagged `header.dscp`) and rewrites its DSCP when the tag
  // changes.
  void apply(const Decision& decision, uint8_t* frame, const wire::FrameHeader& header);

  // apply() for the packets of a run after its first (their tag is the run's, `decision`
  // its): the rewrite alone, inline; count_run() counts them once when the run ends.
  [[gnu::always_inline]] void rewrite_in_run(const Decision& decision, uint8_t* frame,
                                             const wire::FrameHeader& header) const {
    if (decision.new_tag != header.dscp) wire::rewrite_dscp(frame, header, decision.new_tag);
  }
  void count_run(const Decision& decision, uint8_t tag, uint32_t packets);

  // Steps 2 and 3 for the copy of an IP packet that leaves by `out_port`: rewrites its DSCP
  // when the tag changes and returns the egress queue.
  uint8_t rewrite(uint8_t* frame, const wire::FrameHeader& header, int in_port, int out_port) {
    const Decision decision = decide(header.dscp, in_port, out_port);
    apply(decision, frame, header);
    return decision.queue;
  }

  // Counted by rewrite(): hits per rule; packets whose tag was written (rewritten or
  // demoted); packets of a lossless tag no rule matched (demoted to the lossy tag and queue);
  // packets that came with a tag outside the map (already lossy).
  uint64_t rule_hits(int rule) const { return hits_[rule].read(); }
  uint64_t rewrites() const { return rewrites_.read(); }
  uint64_t demoted() const { return demoted_.read(); }
  uint64_t lossy_in() const { return lossy_in_.read(); }
  int rules() const { return table_.rules(); }
  const tagger::TagRule& rule(int index) const { return table_.rule(static_cast<uint16_t>(index)); }

 private:
  TaggerSettings settings_;
  tagger::TagRewriteTable table_;
  std::unique_ptr<OwnedCounter[]> hits_;
  OwnedCounter rewrites_;
  OwnedCounter demoted_;
  OwnedCounter lossy_in_;
};

}  // namespace fcswitch

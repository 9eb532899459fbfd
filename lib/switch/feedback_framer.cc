#include "switch/feedback_framer.h"

#include <rte_mbuf.h>

#include "wire/credit_frame.h"

namespace fcswitch {

bool FeedbackFramer::add_pfc_layout_frame(const wire::PfcFrame& frame) {
  rte_mbuf* m = rte_pktmbuf_alloc(settings_.pool);
  if (!m) {
    control_alloc_failures_.increment();  // kept in unsent_: tried again next poll
    return false;
  }
  auto* data = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, wire::kPfcFrameBytes));
  wire::encode_pfc(frame, settings_.control_ether_type, data);
  pfc_frames_sent_.increment();
  frames_[count_++] = m;
  return true;
}

void FeedbackFramer::build(const std::array<uint32_t, kNumPriorities>& pending_blocks) {
  if (unsent_.empty() || count_) return;
  // GFC stages ride in PFC's own frame when the link gives them PFC's opcode (GFC §5.1).
  const bool stages_with_pfc = settings_.stage_opcode == wire::kPfcOpcode;
  if (unsent_.class_enable || (stages_with_pfc && unsent_.stage_enable)) {
    wire::PfcFrame frame{settings_.mac, unsent_.class_enable, unsent_.class_time};
    if (stages_with_pfc) {
      for (int prio = 0; prio < kNumPriorities; ++prio)
        if (has_priority(unsent_.stage_enable, prio)) frame.time[prio] = unsent_.stage[prio];
      frame.class_enable |= unsent_.stage_enable;
    }
    if (!add_pfc_layout_frame(frame)) return;
    for (int prio = 0; prio < kNumPriorities; ++prio)
      if (has_priority(unsent_.class_enable, prio))
        (unsent_.class_time[prio] ? pause_sent_ : resume_sent_)[prio].increment();
    unsent_.class_enable = 0;
    if (stages_with_pfc) unsent_.stage_enable = 0;
  }
  if (unsent_.stage_enable) {
    if (!add_pfc_layout_frame(wire::PfcFrame{settings_.mac, unsent_.stage_enable, unsent_.stage,
                                             settings_.stage_opcode}))
      return;
    unsent_.stage_enable = 0;
  }
  if (unsent_.credit_enable) {
    rte_mbuf* m = rte_pktmbuf_alloc(settings_.pool);
    if (!m) {
      control_alloc_failures_.increment();
      return;
    }
    wire::CreditFrame frame{settings_.mac, unsent_.credit_enable, unsent_.credit};
    // FCTBS counts what is on the wire ahead of this frame; packets picked but still held
    // by TX will follow it, and the receiver counts them when they arrive.
    for (int prio = 0; prio < kNumPriorities; ++prio)
      if (has_priority(frame.entry_mask, prio)) frame.entry[prio].fctbs -= pending_blocks[prio];
    auto* data = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, wire::kCreditFrameBytes));
    wire::encode_credit(frame, data);
    credit_frames_sent_.increment();
    frames_[count_++] = m;
    unsent_.credit_enable = 0;
  }
}

bool FeedbackFramer::send(PortIo& io) {
  if (!count_) return false;
  const uint16_t sent = io.tx_burst(frames_, count_);
  for (uint16_t i = sent; i < count_; ++i) frames_[i - sent] = frames_[i];
  count_ = static_cast<uint16_t>(count_ - sent);
  return sent > 0;
}

unsigned FeedbackFramer::take_held(rte_mbuf** out, unsigned max) {
  unsigned n = 0;
  for (uint16_t i = 0; i < count_ && n < max; ++i) out[n++] = frames_[i];
  count_ = 0;
  return n;
}

}  // namespace fcswitch

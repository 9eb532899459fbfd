#pragma once
// What the feedback generators of one port want sent upstream after a poll. Each generator
// writes its own priority's entry; TX(p) turns the result into at most one frame of each
// format, so eight priorities under PFC cost one frame, not eight.

#include <array>
#include <cstdint>

#include "core/traffic_class.h"
#include "wire/credit_frame.h"

namespace fcswitch::fc {

struct FeedbackOut {
  PriorityMask class_enable = 0;  // 802.1Qbb format: PFC, buffer-based GFC
  std::array<uint16_t, kNumPriorities> class_time{};
  PriorityMask stage_enable = 0;  // 802.1Qbb layout with the link's stage opcode: GFC stages
  std::array<uint16_t, kNumPriorities> stage{};
  PriorityMask credit_enable = 0;  // credit format: CBFC, time-based GFC
  std::array<wire::CreditEntry, kNumPriorities> credit{};

  bool empty() const { return !class_enable && !stage_enable && !credit_enable; }
  void clear() { *this = FeedbackOut{}; }
  // `newer` replaces this entry by entry: feedback states a level, the latest one counts.
  void merge(const FeedbackOut& newer) {
    for (int i = 0; i < kNumPriorities; ++i) {
      if (has_priority(newer.class_enable, i)) class_time[i] = newer.class_time[i];
      if (has_priority(newer.stage_enable, i)) stage[i] = newer.stage[i];
      if (has_priority(newer.credit_enable, i)) credit[i] = newer.credit[i];
    }
    class_enable |= newer.class_enable;
    stage_enable |= newer.stage_enable;
    credit_enable |= newer.credit_enable;
  }
};

}  // namespace fcswitch::fc

#pragma once
// Every mbuf that enters the switch leaves by transmission or by a drop with one of these
// names (docs/architecture.md). Each has its own counter, exported as fcswitch_drops_total{reason},
// in the JSON and text reports, and in the lab's per-port drops.
//
// The enum, the names, the kinds and the descriptions all come from FCSWITCH_DROP_REASONS
// below (an X-macro, as VPP's foreach_*_error lists), composed of each part's own list: adding
// a reason is one line where it is dropped, and every report, metric and the lab's frame
// accounting follow. The table in docs/reference/drop-reasons.md is checked against it by a
// test.

#include <array>
#include <cstdint>
#include <string_view>

#include "switch/datapath_drops.h"
#include "switch/fwd/next_hop_drops.h"
#include "switch/fwd/pabo_drops.h"

namespace fcswitch {

// What a drop says about the frame, for frame accounting (the lab's conservation check
// generated = received + dropped + in flight counts data frames only).
enum class DropKind : uint8_t {
  kData,      // a data frame
  kLossless,  // a data frame of a lossless priority lost for want of buffer: a flow-control
              // failure (the lab's lossless_drops, which must stay 0)
  kControl,   // a flow-control frame consumed by RX, never a data frame
};

// A reason is declared where what drops lives, in a list of its own (X(enumerator, name, kind,
// description); the description is a sentence fragment saying when it happens, the name what
// every report and metric shows), as grout's GR_DROP_REGISTER next to its node. A feature's
// list is its *_drops.h beside it, and one line here. The order is the reports' and the lab
// summaries' (by port, the reasons with a count, in this order).
#define FCSWITCH_DROP_REASONS(X)    \
  FCSWITCH_DATAPATH_DROP_REASONS(X) \
  FCSWITCH_NEXT_HOP_DROP_REASONS(X) \
  FCSWITCH_PABO_DROP_REASONS(X)

enum class DropReason : uint8_t {
#define FCSWITCH_DROP_ENUMERATOR(enumerator, name, kind, description) enumerator,
  FCSWITCH_DROP_REASONS(FCSWITCH_DROP_ENUMERATOR)
#undef FCSWITCH_DROP_ENUMERATOR
  // clang-format off
  kCount,  // not a reason: the number of them, and "no drop" where one is optional
  // clang-format on
};

inline constexpr int kNumDropReasons = static_cast<int>(DropReason::kCount);

struct DropReasonInfo {
  DropReason reason;
  std::string_view name;
  DropKind kind;
  std::string_view description;
};

inline constexpr std::array<DropReasonInfo, kNumDropReasons> kDropReasons = {{
#define FCSWITCH_DROP_INFO(enumerator, name, kind, description) \
  {DropReason::enumerator, name, DropKind::kind, description},
    FCSWITCH_DROP_REASONS(FCSWITCH_DROP_INFO)
#undef FCSWITCH_DROP_INFO
}};

constexpr const DropReasonInfo& drop_reason_info(DropReason reason) {
  return kDropReasons[static_cast<int>(reason)];
}
constexpr std::string_view drop_reason_name(DropReason reason) {
  return drop_reason_info(reason).name;
}
// A data frame lost (frame conservation counts it), not a flow-control frame.
constexpr bool is_data_drop(DropReason reason) {
  return drop_reason_info(reason).kind != DropKind::kControl;
}
// A lossless frame lost for want of buffer: what flow control exists to prevent.
constexpr bool is_lossless_drop(DropReason reason) {
  return drop_reason_info(reason).kind == DropKind::kLossless;
}

namespace drop_reason_checks {
// Names are what Prometheus label values, JSON keys and scripts use: unique, snake_case.
constexpr bool snake_case(std::string_view s) {
  if (s.empty() || s.front() == '_' || s.back() == '_') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}
constexpr bool names_unique_and_snake_case() {
  for (int i = 0; i < kNumDropReasons; ++i) {
    if (!snake_case(kDropReasons[i].name) || kDropReasons[i].description.empty()) return false;
    for (int j = 0; j < i; ++j)
      if (kDropReasons[i].name == kDropReasons[j].name) return false;
  }
  return true;
}
}  // namespace drop_reason_checks
static_assert(drop_reason_checks::names_unique_and_snake_case(),
              "drop reason names must be unique snake_case, each with a description");

}  // namespace fcswitch

#pragma once
// Every mbuf that enters the switch leaves by transmission or by a drop with one of these
// names (docs/architecture.md). Each has its own counter, exported as fcswitch_drops_total{reason},
// in the JSON and text reports, and in the lab's per-port drops.
//
// The reasons are declared once, in FCSWITCH_DROP_REASONS below (an X-macro, as VPP's
// foreach_*_error lists): the enum, the name, the kind and the description all come from
// that line, so adding a reason is one line and every report, metric and the lab's frame
// accounting follow. The table in docs/reference/drop-reasons.md is checked against it by a
// test.

#include <array>
#include <cstdint>
#include <string_view>

namespace fcswitch {

// What a drop says about the frame, for frame accounting (the lab's conservation check
// generated = received + dropped + in flight counts data frames only).
enum class DropKind : uint8_t {
  kData,      // a data frame
  kLossless,  // a data frame of a lossless priority lost for want of buffer: a flow-control
              // failure (the lab's lossless_drops, which must stay 0)
  kControl,   // a flow-control frame consumed by RX, never a data frame
};

// X(enumerator, name, kind, description). The description is a sentence fragment saying
// when it happens; the name is what every report and metric shows.
// clang-format off
#define FCSWITCH_DROP_REASONS(X)                                                                  \
  X(kRunt, "runt", kData, "ends inside its Ethernet header (14 bytes, 18 with a VLAN tag)")       \
  X(kMalformed, "malformed", kData,                                                               \
    "an IP header that runs past the frame's end, or a bad IP version")                           \
  X(kLinkLocal, "link_local", kData,                                                              \
    "to 01:80:C2:00:00:0x (802.1D reserved), which a bridge never forwards")                      \
  X(kSamePort, "same_port", kData, "the FIB sends it back out of its ingress port")               \
  X(kNoEgressPort, "no_egress_port", kData, "a flood with nowhere to go (a one-port switch)")     \
  X(kLossyBufferFull, "lossy_buffer_full", kData,                                                 \
    "a lossy-priority frame refused by the shared buffer's dynamic threshold")                    \
  X(kLosslessOverflow, "lossless_overflow", kLossless,                                            \
    "a lossless-priority frame that would exceed its ingress limit: flow control failed")         \
  X(kEgressRingFull, "egress_ring_full", kData,                                                   \
    "the egress queue's ring was full before the buffer was: ring too small for the buffer")      \
  X(kFwdRingFull, "fwd_ring_full", kData, "RX could not hand the burst to FWD")                   \
  X(kCopyFailed, "copy_failed", kData, "the mempool ran empty while copying a flooded frame")     \
  X(kShutdownFlush, "shutdown_flush", kData,                                                      \
    "still queued when the drain deadline passed at shutdown")                                    \
  X(kAfterStop, "after_stop", kData,                                                              \
    "a data frame that arrived after the switch stopped receiving (shutdown); its port is still " \
    "read for flow-control frames while the queues drain")                                        \
  X(kControlInvalid, "control_invalid", kControl,                                                 \
    "a flow-control frame its decoder refused (short, bad address, opcode)")                      \
  X(kControlUntrusted, "control_untrusted", kControl,                                             \
    "a flow-control frame on a port told not to trust them")                                      \
  X(kControlRingFull, "control_ring_full", kControl,                                              \
    "RX could not hand a flow-control frame's messages to TX")                                    \
  X(kWatchdogDrop, "watchdog_drop", kData,                                                        \
    "dropped from a queue whose gate the watchdog found stuck (action drop)")                     \
  X(kTtlExpired, "ttl_expired", kData,                                                            \
    "the IPv4 TTL or IPv6 hop limit ran out ([switch] decrement_ttl): a routing loop")            \
  X(kOversize, "oversize", kData,                                                                 \
    "longer than the ingress port's MTU allows (+ Ethernet header and VLAN tag)")                 \
  X(kQueueCapacity, "queue_capacity", kData,                                                      \
    "a PABO queue's sub-queue was at its capacity ([pabo]): a drop-tail queue without bouncing, " \
    "or no room in the bounce sub-queue a bounce goes to")                                        \
  X(kNoHeadroom, "no_headroom", kData,                                                            \
    "a bounce found no room in front of the frame for PABO's shim (mbuf headroom)")
// clang-format on

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

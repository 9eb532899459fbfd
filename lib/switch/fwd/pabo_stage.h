#pragma once
// PABO in FWD (PABO §II): on its priorities, a packet is admitted by the sub-queue it would join
// at its egress (normal, or bounce once it has been bounced), not by the shared buffer. Eq. 4's
// draw on that sub-queue's utilisation u_q decides whether it bounces: back towards its source,
// into that port's bounce sub-queue, with n_p + 1 in its shim (inserted behind any VLAN tags the
// first time). FWD is the only writer of the counters.

#include <rte_mbuf.h>

#include <cstdint>
#include <optional>

#include "core/packet_meta.h"
#include "core/traffic_class.h"
#include "pabo/bounce_policy.h"
#include "pabo/bounce_settings.h"
#include "switch/drop_reasons.h"
#include "switch/fwd/next_hop.h"
#include "switch/fwd/pabo_counters.h"
#include "switch/l2_fib.h"
#include "wire/frame_header.h"
#include "wire/pabo_shim.h"

namespace fcswitch {

struct PaboStageSettings {
  PriorityMask priorities = 0;  // the priorities whose queues bounce; none: no PABO
  pabo::BounceSettings bounce;
  uint64_t seed = 0;  // of the draws
};

// Where a PABO packet goes: an egress port's sub-queue, or a drop.
struct PaboPlacement {
  int port = -1;  // -1: dropped, for `reason`
  PaboSubqueue subqueue = PaboSubqueue::kNormal;
  DropReason reason = DropReason::kQueueCapacity;
};

class PaboStage {
 public:
  // `fib` and `next_hop`: where a bounce goes (the port towards the packet's source).
  PaboStage(const PaboStageSettings& settings, int ports, const L2Fib& fib,
            const NextHop& next_hop);

  PriorityMask priorities() const { return priorities_; }
  bool applies(int priority) const { return has_priority(priorities_, priority); }

  // The fate of a packet of a PABO priority that the FIB sends to `out_port`: forwarded there,
  // bounced, or dropped (its shim rewritten, or inserted, for where it goes). `depth(port,
  // bounce_subqueue)`: u_q's packets and bytes of that sub-queue of the packet's queue.
  template <class Depth>
  PaboPlacement place(rte_mbuf* m, int in_port, int out_port, uint8_t priority,
                      const wire::FrameHeader& header, Depth&& depth) {
    const uint32_t bytes = rte_pktmbuf_pkt_len(m);
    const bool bounced_before = header.bounces > 0;
    if (bounced_before) counters_.increment(PaboCounters::kArrivedBounced, in_port, priority);
    // The sub-queue it would join: the bounce one once it has been bounced (the authors' code).
    const pabo::SubqueueDepth u_q = depth(out_port, bounced_before);
    if (policy_->bounces(u_q, bytes, header.bounces)) {
      const int back = bounce_port(m, in_port, header);
      // No Eq. 4 there: it goes back if it fits (PABO §II-D; the authors' code).
      const uint32_t bounced_bytes =
          bytes + (header.has_pabo_shim() ? 0 : static_cast<uint32_t>(wire::kPaboShimBytes));
      if (policy_->full(depth(back, true), bounced_bytes, true)) {
        counters_.increment(PaboCounters::kBounceFull, back, priority);
        return {};
      }
      if (!write_bounced(m, header)) return {.reason = DropReason::kNoHeadroom};
      counters_.increment(PaboCounters::kBounced, back, priority);
      return {.port = back, .subqueue = PaboSubqueue::kBounce};
    }
    if (policy_->full(u_q, bytes, bounced_before)) {
      counters_.increment(bounced_before ? PaboCounters::kBounceFull : PaboCounters::kNormalFull,
                          out_port, priority);
      return {};
    }
    // Only a bounced frame goes back the way it came.
    if (out_port == in_port && !header.has_pabo_shim()) return {.reason = DropReason::kSamePort};
    if (header.has_pabo_shim()) write_forwarded(m, header);
    if (bounced_before) counters_.increment(PaboCounters::kReforwarded, out_port, priority);
    return {.port = out_port,
            .subqueue = bounced_before ? PaboSubqueue::kBounce : PaboSubqueue::kNormal};
  }

  // A packet never bounced (no shim) joining (its out port's) normal sub-queue at `depth`
  // without a draw: what place() would do with it (pabo::BouncePolicy::passes).
  bool passes(pabo::SubqueueDepth depth, uint32_t frame_bytes) const {
    return policy_->passes(depth, frame_bytes);
  }

  const PaboCounters& counters() const { return counters_; }

 private:
  // Back by the FIB's port for the packet's source, not the arrival port: after a second bounce
  // the arrival port leads downstream (the authors' code). Unknown: the way it came.
  int bounce_port(const rte_mbuf* m, int in_port, const wire::FrameHeader& header) const;
  // The shim with n_p + 1, inserted where the frame's EtherType was when it has none; false when
  // the mbuf has no headroom for it.
  bool write_bounced(rte_mbuf* m, const wire::FrameHeader& header) const;
  void write_forwarded(rte_mbuf* m, const wire::FrameHeader& header) const;

  PriorityMask priorities_;
  std::optional<pabo::BouncePolicy> policy_;
  const L2Fib& fib_;
  const NextHop& next_hop_;
  PaboCounters counters_;
};

}  // namespace fcswitch

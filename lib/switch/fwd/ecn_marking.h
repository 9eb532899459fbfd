#pragma once
// ECN marking in FWD (RFC 3168; DCQCN §3.1): per egress port, the queues that mark and their
// RED-like profile (K_min, K_max, P_max); a packet joining such a queue is drawn on the profile at
// the queue's depth ahead of it, and an ECT packet the draw picks leaves CE. FWD is the only
// writer of the counters.

#include <rte_mbuf.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/traffic_class.h"
#include "ecn/ecn_marker.h"
#include "ecn/marking_probability.h"
#include "params/ecn_params.h"
#include "switch/fwd/ecn_counters.h"
#include "wire/ecn_mark.h"
#include "wire/frame_header.h"

namespace fcswitch {

struct EcnMarkingSettings {
  // Per egress port: the queues that mark and their profile (no queues: none). Empty: no port
  // marks.
  std::vector<config::PortEcn> ports;
  uint64_t seed = 0;  // of the draws
};

class EcnMarking {
 public:
  // Marks on ports 0-63 of a switch of `ports` ports (the config allows no more).
  EcnMarking(const EcnMarkingSettings& settings, int ports);

  // Whether any queue of any port marks (fixed at construction).
  bool enabled() const { return marker_.has_value(); }
  // Whether queue `queue` of `out_port` marks: the one test a packet pays in a switch without
  // [ecn] (a bit of a word per queue).
  bool marks(int out_port, int queue) const { return ports_by_queue_[queue] >> out_port & 1; }
  // The draw on (out_port, queue)'s profile at `depth_bytes`, the bytes ahead of the packet in
  // that queue, then CE on an ECT packet. Out of line: only ports with a marking queue call it.
  [[gnu::noinline]] void mark(rte_mbuf* m, const wire::FrameHeader& header, int out_port, int queue,
                              uint64_t depth_bytes);
  const EcnCounters& counters() const { return counters_; }

  // What a run of packets on one marking queue counts (EcnCounters' kinds), added to the
  // counters once when the run ends (add_run): a count a packet is a read-modify-write that
  // waits on the previous packet's store to the same counter.
  struct RunCounts {
    std::array<uint32_t, EcnCounters::kKinds> kinds{};
  };
  const ecn::MarkingProbability& profile(int out_port, int queue) const {
    return *profiles_[out_port * kNumEgressQueues + queue];
  }
  // mark() for a run's packet, its queue's profile looked up once for the run.
  [[gnu::always_inline]] void mark_in_run(rte_mbuf* m, const wire::FrameHeader& header,
                                          const ecn::MarkingProbability& profile,
                                          uint64_t depth_bytes, RunCounts& counts) {
    const int kind = decide(rte_pktmbuf_mtod(m, uint8_t*), header, profile, depth_bytes);
    if (kind < EcnCounters::kKinds) ++counts.kinds[kind];
  }
  void add_run(const RunCounts& counts, int out_port, int queue);

 private:
  // The draw, then CE on an ECT packet: the kind to count, or EcnCounters::kKinds for none.
  [[gnu::always_inline]] int decide(uint8_t* frame, const wire::FrameHeader& header,
                                    const ecn::MarkingProbability& profile, uint64_t depth_bytes) {
    const wire::EcnCodepoint codepoint = wire::read_ecn(frame, header);
    if (codepoint == wire::EcnCodepoint::kCe) return EcnCounters::kCeArrived;
    // q: the bytes ahead of it in the queue, before its own charge.
    if (!marker_->marks(profile, depth_bytes)) return EcnCounters::kKinds;
    // RFC 3168 §5: a Not-ECT packet is not marked, and congestion alone never drops it here
    // (the buffer's admission does that, for its own reasons).
    if (codepoint == wire::EcnCodepoint::kNotEct) return EcnCounters::kNotEct;
    wire::set_ce(frame, header);
    return EcnCounters::kMarked;
  }

  // [queue] bit p set when queue `queue` of egress port p marks; the profile of each
  // [port * kNumEgressQueues + queue] that marks.
  std::array<uint64_t, kNumEgressQueues> ports_by_queue_{};
  std::vector<std::optional<ecn::MarkingProbability>> profiles_;
  std::optional<ecn::EcnMarker> marker_;
  EcnCounters counters_;
};

}  // namespace fcswitch

#include "switch/fwd/ecn_marking.h"

#include <stdexcept>
#include <string>

#include "wire/ecn_mark.h"

namespace fcswitch {

EcnMarking::EcnMarking(const EcnMarkingSettings& settings, int ports) : counters_(ports) {
  for (size_t p = 0; p < settings.ports.size(); ++p) {
    const config::PortEcn& port = settings.ports[p];
    if (!port.queues) continue;
    if (p >= 64 || static_cast<int>(p) >= ports)
      throw std::invalid_argument("ECN marking on port " + std::to_string(p) +
                                  ": FWD marks on ports 0-63 of this switch only");
    profiles_.resize(static_cast<size_t>(ports) * kNumEgressQueues);
    for (int q = 0; q < kNumPriorities; ++q) {
      if (!has_priority(port.queues, q)) continue;
      ports_by_queue_[q] |= uint64_t{1} << p;
      profiles_[p * kNumEgressQueues + q].emplace(port.profile.k_min_bytes,
                                                  port.profile.k_max_bytes, port.profile.p_max);
    }
  }
  if (!profiles_.empty()) marker_.emplace(settings.seed);
}

void EcnMarking::mark(rte_mbuf* m, const wire::FrameHeader& header, int out_port, int queue,
                      uint64_t depth_bytes) {
  const ecn::MarkingProbability& profile = *profiles_[out_port * kNumEgressQueues + queue];
  uint8_t* frame = rte_pktmbuf_mtod(m, uint8_t*);
  const wire::EcnCodepoint codepoint = wire::read_ecn(frame, header);
  if (codepoint == wire::EcnCodepoint::kCe)
    return counters_.increment(EcnCounters::kCeArrived, out_port, queue);
  // q: the bytes ahead of it in the queue, before its own charge.
  if (!marker_->marks(profile, depth_bytes)) return;
  // RFC 3168 §5: a Not-ECT packet is not marked, and congestion alone never drops it here
  // (the buffer's admission does that, for its own reasons).
  if (codepoint == wire::EcnCodepoint::kNotEct)
    return counters_.increment(EcnCounters::kNotEct, out_port, queue);
  wire::mark_ce(frame, header);
  counters_.increment(EcnCounters::kMarked, out_port, queue);
}

}  // namespace fcswitch

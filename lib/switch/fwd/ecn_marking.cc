#include "switch/fwd/ecn_marking.h"

#include <stdexcept>
#include <string>

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
  const int kind =
      decide(rte_pktmbuf_mtod(m, uint8_t*), header, profile(out_port, queue), depth_bytes);
  if (kind < EcnCounters::kKinds)
    counters_.increment(static_cast<EcnCounters::Kind>(kind), out_port, queue);
}

void EcnMarking::add_run(const RunCounts& counts, int out_port, int queue) {
  for (int kind = 0; kind < EcnCounters::kKinds; ++kind)
    if (counts.kinds[kind])
      counters_.add(static_cast<EcnCounters::Kind>(kind), out_port, queue, counts.kinds[kind]);
}

}  // namespace fcswitch

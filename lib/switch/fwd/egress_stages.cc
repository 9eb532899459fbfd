#include "switch/fwd/egress_stages.h"

#include <rte_ring.h>

namespace fcswitch {

rte_ring* EgressStages::ring(SwitchState& state, int index, int input) const {
  const int port = port_of(index);
  const int queue = index % kNumEgressQueues;  // bounce_base_ is whole ports of queues
  return index >= bounce_base_ ? state.bounce_rings[port][queue].get()
                               : state.egress_ring_to_fill(port, queue, input);
}

void EgressStages::flush(SwitchState& state, int input) {
  for (int index : touched_) {
    Stage& stage = stages_[index];
    const int port = port_of(index);
    // Always fits: the stage's room was checked as it was filled.
    rte_ring_sp_enqueue_bulk(ring(state, index, input), reinterpret_cast<void**>(stage.pkts),
                             stage.count, nullptr);
    state.egress_enqueued[port].add(stage.count);
    state.tx_wakes.mark(port);
    stage.count = 0;
  }
  touched_.clear();
}

}  // namespace fcswitch

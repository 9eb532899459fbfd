#include "lab/host_sink.h"

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/units.h"
#include "lab/flow_frame.h"
#include "lab/host_source.h"
#include "switch/burst.h"
#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/frame_header.h"

namespace fcswitch::lab {

HostSink::HostSink(std::string name, wire::MacAddress mac, SwitchState& state,
                   const PriorityMaps& maps, std::vector<FlowReceived>& flows)
    : Task(std::move(name)),
      mac_(mac),
      state_(state),
      classifier_(maps),
      flows_(flows),
      next_sequence_(flows.size(), 0) {}

void HostSink::receive(const uint8_t* data, uint32_t length, uint64_t now) {
  constexpr int port = HostSource::kNicPort;
  if (wire::control_frame_kind(data, length, 0) == wire::ControlFrameKind::kCredit) {
    // RX passed it on for the resynchronisation only (a switch's FWD does the same).
    state_.resynchronise(port, wire::decode_credit(data, length).frame);
    credit_frames_.increment();
    return;
  }
  const auto header = wire::parse_frame_header(data, length);
  if (header.status != wire::FrameStatus::kOk) {
    foreign_.increment();
    return;
  }
  // Every frame the link brought counts for CBFC's ABR, ours or not: the switch counted it in
  // its FCTBS when it sent it.
  state_.received_blocks[SwitchState::occupancy_slot(port, classifier_.classify(header))].add(
      wire::credit_blocks(length));
  // A flow's frame reaching another host (flooded: no route to its destination) is not a
  // delivery: counting it would credit the flow once per host the flood reached.
  const auto stamp = read_flow_stamp(data, length);
  if (header.dst != mac_ || !stamp || stamp->flow >= flows_.size()) {
    foreign_.increment();
    return;
  }
  FlowReceived& flow = flows_[stamp->flow];
  uint64_t& next = next_sequence_[stamp->flow];
  if (stamp->sequence < next) {
    flow.reordered.increment();
  } else {
    if (stamp->sequence > next) flow.missing.add(stamp->sequence - next);
    next = stamp->sequence + 1;
  }
  flow.packets.increment();
  flow.bytes.add(length);
  if (!flow.first_ticks.read()) flow.first_ticks.set(now + 1);
  flow.last_ticks.set(now);
}

bool HostSink::poll(uint64_t now) {
  rte_mbuf* pkts[kBurstSize];
  const unsigned n = rte_ring_sc_dequeue_burst(state_.fwd_rings[HostSource::kNicPort].get(),
                                               reinterpret_cast<void**>(pkts), kBurstSize, nullptr);
  for (unsigned i = 0; i < n; ++i)
    receive(rte_pktmbuf_mtod(pkts[i], const uint8_t*), rte_pktmbuf_data_len(pkts[i]), now);
  if (n) rte_pktmbuf_free_bulk(pkts, n);
  return n > 0;
}

}  // namespace fcswitch::lab

#include "switch/fwd/pabo_stage.h"

#include "wire/pabo_shim.h"

namespace fcswitch {

PaboStage::PaboStage(const PaboStageSettings& settings, int ports, const L2Fib& fib,
                     const NextHop& next_hop)
    : priorities_(settings.priorities), fib_(fib), next_hop_(next_hop), counters_(ports) {
  if (priorities_) policy_.emplace(settings.bounce, settings.seed);
}

int PaboStage::bounce_port(const rte_mbuf* m, int in_port, const wire::FrameHeader& header) const {
  const int target = header.src.is_multicast() ? L2Fib::kUnknown : fib_.lookup(header.src);
  const int back = next_hop_.out_port(target, m, header);
  return back == L2Fib::kUnknown ? in_port : back;
}

bool PaboStage::write_bounced(rte_mbuf* m, const wire::FrameHeader& header) const {
  if (header.has_pabo_shim()) {
    uint8_t* shim = rte_pktmbuf_mtod(m, uint8_t*) + header.pabo_offset;
    wire::write_pabo_shim(shim, wire::bounced(wire::read_pabo_shim(shim)));
    return true;
  }
  // The shim goes where the frame's EtherType was, behind any VLAN tags.
  const size_t shim_offset = header.l3_offset - 2u;
  if (!rte_pktmbuf_prepend(m, static_cast<uint16_t>(wire::kPaboShimBytes))) return false;
  wire::insert_pabo_shim(rte_pktmbuf_mtod(m, uint8_t*) + wire::kPaboShimBytes, shim_offset,
                         wire::bounced(wire::PaboShim{}));
  return true;
}

void PaboStage::write_forwarded(rte_mbuf* m, const wire::FrameHeader& header) const {
  uint8_t* shim = rte_pktmbuf_mtod(m, uint8_t*) + header.pabo_offset;
  wire::write_pabo_shim(shim, wire::forwarded(wire::read_pabo_shim(shim)));
}

}  // namespace fcswitch

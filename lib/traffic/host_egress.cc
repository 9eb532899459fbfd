#include "traffic/host_egress.h"

#include <rte_mbuf.h>
#include <rte_ring.h>

#include <algorithm>
#include <cstring>

#include "core/packet_meta.h"
#include "dpdk/frame_room.h"
#include "traffic/flow_frame.h"

namespace fcswitch::lab {

HostEnqueue enqueue_host_frame(SwitchState& state, rte_mempool* pool,
                               std::span<const uint8_t> frame, uint8_t priority, uint64_t sequence,
                               uint64_t send_time, uint64_t now, unsigned max_queued) {
  rte_ring* queue = state.egress_ring_to_fill(kHostNicPort, priority, kHostApplicationPort);
  if (rte_ring_count(queue) >= max_queued || rte_ring_free_count(queue) == 0)
    return HostEnqueue::kQueueFull;
  rte_mbuf* m = rte_pktmbuf_alloc(pool);
  if (!m) return HostEnqueue::kNoMbuf;
  const auto length = static_cast<uint32_t>(frame.size());
  dpdk::make_tailroom(m, length);
  // The lab's pool holds a frame's headers only (lab/lab_frame_pool.h); fchost's, all of it.
  const auto carried = static_cast<uint16_t>(std::min<uint32_t>(length, rte_pktmbuf_tailroom(m)));
  auto* data = rte_pktmbuf_mtod(m, uint8_t*);
  std::memcpy(data, frame.data(), carried);
  m->data_len = carried;
  m->pkt_len = length;
  if (sequence != kNoStamp) stamp_flow_sequence(data, sequence);
  if (send_time != kNoStamp) stamp_flow_send_time(data, send_time);
  const PacketMeta meta{.ingress_port = kHostApplicationPort,
                        .priority = priority,
                        .egress_queue = priority,
                        .lossy = 0,
                        .pabo = 0,
                        .charged_bytes = length};
  state.charge(meta, kHostNicPort);
  state.meta(m) = meta;
  state.meta.rx_ticks(m) = now;   // the host's queue is where it waits: its residence time
  rte_ring_sp_enqueue(queue, m);  // room checked above; the host's tasks share one thread
  state.egress_enqueued[kHostNicPort].increment();
  return HostEnqueue::kQueued;
}

}  // namespace fcswitch::lab

#pragma once
// Room behind a frame's start in a buffer smaller than DPDK's headroom and the frame (the lab's
// frames carry their headers only: lab/lab_frame_pool.h). rte_pktmbuf_reset puts the start
// RTE_PKTMBUF_HEADROOM (128) bytes in, whatever the buffer, and a 128-byte buffer then has no
// room for a byte; an allocation of such a frame moves the start forward first.

#include <rte_mbuf.h>

#include <algorithm>
#include <cstdint>

namespace fcswitch::dpdk {

// What stays in front of a frame's start: PABO's 10-byte shim is the most a switch puts there
// (switch/fwd/pabo_stage.h), and 16 keeps the start 16-byte aligned.
inline constexpr uint16_t kMinHeadroomBytes = 16;

// An mbuf just allocated (no data yet): room for `bytes` behind its start where its buffer has
// them beside kMinHeadroomBytes, or all the buffer has beside those. A buffer with DPDK's
// headroom and room for `bytes` is left as it is.
inline void make_tailroom(rte_mbuf* m, uint32_t bytes) {
  if (rte_pktmbuf_tailroom(m) >= bytes) return;
  const uint32_t start =
      m->buf_len > bytes + kMinHeadroomBytes ? m->buf_len - bytes : kMinHeadroomBytes;
  m->data_off = static_cast<uint16_t>(std::min<uint32_t>(start, m->data_off));
}

// A copy of a one-segment frame from its pool: the bytes it carries, its length (a lab frame's
// pkt_len is the whole frame's, beyond what it carries) and the fields rte_pktmbuf_copy keeps.
// Null when the pool has none. (rte_pktmbuf_copy would chain segments where the buffer is
// small.)
rte_mbuf* copy_frame(const rte_mbuf* m);

}  // namespace fcswitch::dpdk

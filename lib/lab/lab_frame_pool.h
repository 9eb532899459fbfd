#pragma once
// The mbufs of the lab's data frames. A lab frame carries only the bytes that anything reads or
// writes: Ethernet, VLAN, PABO's shim, IPv4 and UDP headers and our stamp
// (traffic/flow_frame.h), all within its first kLabFrameCarriedBytes. Its wire length is its
// pkt_len, which links, queues, engines, counters and the wire framing read, as they do on a
// full frame in fcswitch; the switch code is the same (data_len bounds what is parsed,
// pkt_len is what a frame costs). Its buffer is 128 bytes: kLabFrameCarriedBytes behind the
// frame's start and dpdk::kMinHeadroomBytes in front (PABO's shim); the frame's allocation puts
// the start there (dpdk/frame_room.h), since DPDK's reset puts it 128 bytes in. A frame in flight
// then takes 320 bytes (the pool's header, the mbuf, the buffer: 5 cache lines), not a 2 KB
// buffer.
//
// The pool lies on anonymous memory of its own, in transparent huge pages where the kernel
// gives them (madvise mode, Debian's default), packed without regard to page boundaries: the
// lab's frames never meet a device, so their IOVA is never read. Under --no-huge the EAL's own
// memory is 4 KB pages, on which DPDK keeps an mbuf inside one page: one mbuf a page.
//
// It grows as frames are needed: its mempool ops (fclab_growing) carve the next chunk of
// mbufs when the free ones cannot serve an allocation, up to [lab] mbufs, so memory follows
// the most frames ever in flight rather than the pool's size. An allocation fails only when
// all of them are out, as with a pool made whole at the start: the run is the same. (On
// several threads, other threads' mempool caches may hold free ones: LabNetwork adds room for
// them.)

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <cstdint>
#include <string>

#include "dpdk/frame_room.h"

namespace fcswitch::lab {

// Ethernet 14 + VLAN 4 + IPv4 with options 60 + UDP 8 + our stamp 24 = 110 (PABO's 10-byte shim
// is prepended into the headroom).
inline constexpr uint16_t kLabFrameCarriedBytes = 112;
inline constexpr uint16_t kLabFrameBufferBytes = dpdk::kMinHeadroomBytes + kLabFrameCarriedBytes;
// The control frames' (PFC, credits, GFC, Pyrrha), built behind DPDK's headroom as fcswitch's.
inline constexpr uint16_t kLabControlBufferBytes = RTE_PKTMBUF_HEADROOM + 128;

// `buffer_bytes`: each mbuf's data room. Throws std::runtime_error naming the pool when it
// cannot be made. The mbufs not carved yet count as available (rte_mempool_avail_count):
// rte_mempool_in_use_count is what is out.
rte_mempool* create_lab_frame_pool(const std::string& name, unsigned mbufs, unsigned cache,
                                   uint16_t buffer_bytes = kLabFrameBufferBytes);

// From now on the pool hands out only the mbufs it has carved; those not carved no longer
// count as available.
void stop_lab_frame_pool_growing(rte_mempool* pool);

// Frees a pool create_lab_frame_pool made, without carving first what it never needed:
// rte_mempool_free drains a pool by dequeuing until nothing comes, which would grow it to its
// whole size (at k = 16's 2 097 151 mbufs, 900 MB taken at the end of a run, and seconds).
void free_lab_frame_pool(rte_mempool* pool);

}  // namespace fcswitch::lab

#pragma once
// A host's frames into its NIC's egress queue of a priority, as if they had arrived on the
// host's port 1 (its applications): charged there, so the NIC port's ingress occupancy — what
// its feedback generators watch — stays the traffic it receives. Used by the flows' sources
// (data) and by the sinks (ACKs, CNPs).

#include <rte_mempool.h>

#include <cstdint>
#include <span>

#include "switch/switch_state.h"

namespace fcswitch::lab {

inline constexpr int kHostNicPort = 0;
inline constexpr int kHostApplicationPort = 1;  // SwitchState port a host's own frames "arrive" on

enum class HostEnqueue : uint8_t { kQueued, kNoMbuf, kQueueFull };

inline constexpr uint64_t kNoStamp = UINT64_MAX;

// A copy of `frame` from `pool` into the NIC's egress ring of `priority` (unless it holds
// `max_queued` frames or more), with its per-copy fields (traffic/flow_frame.h) written: the
// sequence (or cumulative ACK) and the send time (or its echo), each unless kNoStamp. The copy
// carries as much of the frame as an mbuf of `pool` holds: all of it from a pool made for the
// host's largest frame (fchost's), the headers from the lab's (lab/lab_frame_pool.h); its
// pkt_len is the frame's length either way.
HostEnqueue enqueue_host_frame(SwitchState& state, rte_mempool* pool,
                               std::span<const uint8_t> frame, uint8_t priority, uint64_t sequence,
                               uint64_t send_time, uint64_t now_ticks, unsigned max_queued);

}  // namespace fcswitch::lab

#pragma once
// The data frames a lab network can hold at once: how large [lab] mbufs must be for no source
// ever to wait for a frame. Every data frame is a data-pool mbuf from its source until a sink
// or a drop frees it, and while it lives it is in one of three places:
//  - a switch's buffer, charged to its (ingress port, priority) until it leaves: a lossless
//    priority holds at most `lossless_ingress_bytes` there (flow control keeps it under; what
//    would overflow it is dropped), the lossy ones share `lossy_pool_bytes`, and no egress
//    queue holds more than `egress_queue_packets`; and the port's NIC TX ring;
//  - a link's wire: its rate × delay;
//  - a host's queue, which its source keeps a few frames ahead of TX for each priority.
// At the smallest frame any flow sends, in the priorities the flows send (and, at a switch that
// runs Tagger, every lossless one it has: a new tag's). A transport's ACKs and CNPs, a frame or
// so per data frame in flight, are not counted. A bound, not a forecast: it is reached only
// where every buffer fills at once (a deadlock across the whole network); a run usually holds a
// fraction.

#include <cstdint>

#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

struct LabFrameCapacity {
  uint64_t switch_frames = 0;
  uint64_t wire_frames = 0;
  uint64_t host_frames = 0;
  uint32_t frame_bytes = 0;  // the smallest data frame the flows send
  uint64_t total() const { return switch_frames + wire_frames + host_frames; }
};

// `host_queue_frames`: what a host's source keeps queued ahead of TX for each priority it sends.
LabFrameCapacity lab_frame_capacity(const LabScenario& scenario, uint32_t host_queue_frames);

}  // namespace fcswitch::lab

#pragma once
// The input buffer of an input-queued switch ([switch] queueing = "input-hol"): per (ingress
// port, priority) one FIFO of admitted packets, each with the egress port FWD chose for it. A
// packet leaves only from the head of its FIFO (FwdTask moves heads to their egress queues
// when those have room), so an egress that cannot take the head holds back everything behind
// it — the head-of-line blocking of DPDK test-pipeline's worker, on which the GFC testbed's
// switch was built (GFC §6.1.1: "the input buffer is 1MB").
//
// FWD is the only user: no atomics. The FIFOs grow by doubling and never shrink, so the steady
// state allocates nothing; how much they may hold is the shared buffer's business (PFC, CBFC
// and GFC bound each (port, priority) by B_m, the lossy pool bounds the rest).

#include <cstdint>
#include <memory>
#include <vector>

#include "core/traffic_class.h"

struct rte_mbuf;

namespace fcswitch {

class InputQueues {
 public:
  struct Entry {
    rte_mbuf* packet;
    uint16_t egress_port;
    uint8_t egress_queue;  // as in the packet's metadata: a head is matched without reading it
  };

  explicit InputQueues(int ports);

  static int slot(int port, int priority) { return port * kNumPriorities + priority; }

  // Inline: FWD pushes every packet of an input-queued switch, and pops it again.
  void push(int slot, rte_mbuf* packet, uint16_t egress_port, uint8_t egress_queue) {
    push_run(slot, &packet, 1, egress_port, egress_queue);
  }
  // `n` packets bound for one (egress port, queue), in order: a run of a burst at once.
  void push_run(int slot, rte_mbuf* const* packets, unsigned n, uint16_t egress_port,
                uint8_t egress_queue) {
    if (n == 0) return;  // an empty FIFO stays unmarked
    Fifo& f = fifos_[slot];
    while (f.count + n > (f.mask ? f.mask + 1 : 0)) [[unlikely]] grow(f);
    const uint32_t end = f.first + f.count;
    for (unsigned i = 0; i < n; ++i)
      f.entries[(end + i) & f.mask] = Entry{packets[i], egress_port, egress_queue};
    if (f.count == 0) {
      ++backlogged_slots_;
      backlogged_[slot / kNumPriorities] |=
          static_cast<PriorityMask>(1u << (slot % kNumPriorities));
    }
    f.count += n;
    packets_ += n;
    pushes_ += n;
  }
  bool empty(int slot) const { return fifos_[slot].count == 0; }
  const Entry& front(int slot) const {
    const Fifo& f = fifos_[slot];
    return f.entries[f.first];
  }
  void pop(int slot) {
    Fifo& f = fifos_[slot];
    f.first = (f.first + 1) & f.mask;
    --packets_;
    if (--f.count == 0) {
      backlogged_[slot / kNumPriorities] &=
          static_cast<PriorityMask>(~(1u << (slot % kNumPriorities)));
      --backlogged_slots_;
    }
  }
  // Pops the heads bound for the front's (egress port, queue), up to `max` of them (at least
  // one: the FIFO must hold packets), into `out` in order; how many. A drain of one FIFO moves
  // a run of heads to one egress at once, not a head at a time.
  unsigned pop_run(int slot, unsigned max, rte_mbuf** out) {
    Fifo& f = fifos_[slot];
    const Entry& head = f.entries[f.first];
    const uint16_t egress_port = head.egress_port;
    const uint8_t egress_queue = head.egress_queue;
    const uint32_t limit = max < f.count ? max : f.count;
    uint32_t n = 0;
    do {
      const Entry& e = f.entries[(f.first + n) & f.mask];
      if (e.egress_port != egress_port || e.egress_queue != egress_queue) break;
      out[n] = e.packet;
    } while (++n < limit);
    f.first = (f.first + n) & f.mask;
    packets_ -= n;
    f.count -= n;
    if (f.count == 0) {
      backlogged_[slot / kNumPriorities] &=
          static_cast<PriorityMask>(~(1u << (slot % kNumPriorities)));
      --backlogged_slots_;
    }
    return n;
  }
  // Bit p set: (port, priority p) holds packets.
  PriorityMask backlogged(int port) const { return backlogged_[port]; }
  // The one FIFO that holds packets, when exactly one does (one busy input: a benchmark's,
  // most lab switches' at an instant); -1 otherwise.
  int only_backlogged_slot() const;
  uint64_t packets() const { return packets_; }
  // Packets ever pushed: unchanged, no FIFO has a new head.
  uint64_t pushes() const { return pushes_; }
  // Hands back up to `max` held packets (shutdown, tasks stopped); 0 when none is left.
  unsigned take(rte_mbuf** out, unsigned max);

 private:
  struct Fifo {
    std::unique_ptr<Entry[]> entries;
    uint32_t mask = 0;  // capacity - 1 (a power of two); 0 before the first push
    uint32_t first = 0;
    uint32_t count = 0;
  };
  void grow(Fifo& f);

  std::vector<Fifo> fifos_;
  std::vector<PriorityMask> backlogged_;
  int backlogged_slots_ = 0;  // FIFOs that hold packets
  uint64_t packets_ = 0;
  uint64_t pushes_ = 0;
};

}  // namespace fcswitch

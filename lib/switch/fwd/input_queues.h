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

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/traffic_class.h"

struct rte_mbuf;

namespace fcswitch {

class InputQueues {
 public:
  // A FIFO's head: the packet and the egress FWD chose for it.
  struct Head {
    rte_mbuf* packet;
    uint16_t egress_port;
    uint8_t egress_queue;  // as in the packet's metadata: a head is matched without reading it
  };

  explicit InputQueues(int ports);

  static int slot(int port, int priority) { return port * kNumPriorities + priority; }

  // Inline: FWD pushes every packet of an input-queued switch, and pops it again.
  [[gnu::always_inline]] void push(int slot, rte_mbuf* packet, uint16_t egress_port,
                                   uint8_t egress_queue) {
    Fifo& f = room_for(slot, 1);
    f.packets[(f.first + f.count) & f.mask] = packet;
    add_behind(slot, 1, egress_port, egress_queue);
  }
  // `n` packets bound for one (egress port, queue), in order: a run of a burst at once.
  void push_run(int slot, rte_mbuf* const* packets, unsigned n, uint16_t egress_port,
                uint8_t egress_queue) {
    if (n == 0) return;  // an empty FIFO stays unmarked
    Fifo& f = room_for(slot, n);
    copy_in(f, (f.first + f.count) & f.mask, packets, n);
    add_behind(slot, n, egress_port, egress_queue);
  }
  bool empty(int slot) const { return fifos_[slot].count == 0; }
  Head front(int slot) const {
    const Fifo& f = fifos_[slot];
    const Run& run = f.runs[f.first_run];
    return {f.packets[f.first], run.egress_port, run.egress_queue};
  }
  void pop(int slot) { remove_heads(slot, 1); }
  // Pops the heads bound for the front's (egress port, queue), up to `max` of them (`max` at
  // least one, and the FIFO must hold packets, as for front() and pop()), into `out` in order;
  // how many. A drain of one FIFO moves
  // a run of heads to one egress at once, not a head at a time: the front's run is all of
  // them, since neighbouring runs differ.
  unsigned pop_run(int slot, unsigned max, rte_mbuf** out) {
    Fifo& f = fifos_[slot];
    const uint32_t run = f.runs[f.first_run].packets;
    const uint32_t n = max < run ? max : run;
    copy_out(f, out, n);
    remove_heads(slot, n);
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
  // Consecutive packets of a FIFO bound for one egress (port, queue).
  struct Run {
    uint16_t egress_port;
    uint8_t egress_queue;
    uint32_t packets;
  };
  // The packets in one ring, their runs in another of the same capacity (a run holds a
  // packet at least): a run moves by two copies, not by a test a packet.
  struct Fifo {
    std::unique_ptr<rte_mbuf*[]> packets;
    std::unique_ptr<Run[]> runs;
    uint32_t mask = 0;  // capacity - 1 (a power of two); 0 before the first push
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t first_run = 0;
    uint32_t runs_held = 0;
  };
  void grow(Fifo& f);
  Fifo& room_for(int slot, uint32_t n) {
    Fifo& f = fifos_[slot];
    while (f.count + n > (f.mask ? f.mask + 1 : 0)) [[unlikely]] grow(f);
    return f;
  }
  // The `n` packets just copied in behind the FIFO's last are held, bound for one egress.
  void add_behind(int slot, uint32_t n, uint16_t egress_port, uint8_t egress_queue) {
    Fifo& f = fifos_[slot];
    // Behind a run to the same egress the packets lengthen it: neighbouring runs differ.
    Run* tail = f.runs_held ? &f.runs[(f.first_run + f.runs_held - 1) & f.mask] : nullptr;
    if (tail && tail->egress_port == egress_port && tail->egress_queue == egress_queue) {
      tail->packets += n;
    } else {
      f.runs[(f.first_run + f.runs_held++) & f.mask] = Run{egress_port, egress_queue, n};
    }
    if (f.count == 0) {
      ++backlogged_slots_;
      backlogged_[slot / kNumPriorities] |=
          static_cast<PriorityMask>(1u << (slot % kNumPriorities));
    }
    f.count += n;
    packets_ += n;
    pushes_ += n;
  }
  // One packet by a store: the lab's bursts are of one, and a call to memmove would cost it
  // 2 % of its instructions a packet-hop.
  static void copy_packets(rte_mbuf* const* from, uint32_t n, rte_mbuf** to) {
    if (n == 1) {
      *to = *from;
    } else {
      std::copy_n(from, n, to);
    }
  }
  // The `n` packets at `from` into the ring, from `at` on (wrapping at its end).
  static void copy_in(Fifo& f, uint32_t at, rte_mbuf* const* from, uint32_t n) {
    const uint32_t to_end = f.mask + 1 - at;
    if (n <= to_end) [[likely]] {
      copy_packets(from, n, &f.packets[at]);
    } else {
      copy_packets(from, to_end, &f.packets[at]);
      copy_packets(from + to_end, n - to_end, &f.packets[0]);
    }
  }
  // The ring's `n` first packets into `out`.
  static void copy_out(const Fifo& f, rte_mbuf** out, uint32_t n) {
    const uint32_t to_end = f.mask + 1 - f.first;
    if (n <= to_end) [[likely]] {
      copy_packets(&f.packets[f.first], n, out);
    } else {
      copy_packets(&f.packets[f.first], to_end, out);
      copy_packets(&f.packets[0], n - to_end, out + to_end);
    }
  }
  // The `n` heads leave the FIFO: all of the front run's, or its first `n`.
  void remove_heads(int slot, uint32_t n) {
    Fifo& f = fifos_[slot];
    f.first = (f.first + n) & f.mask;
    f.count -= n;
    packets_ -= n;
    if ((f.runs[f.first_run].packets -= n) == 0) {
      f.first_run = (f.first_run + 1) & f.mask;
      --f.runs_held;
    }
    if (f.count == 0) {
      backlogged_[slot / kNumPriorities] &=
          static_cast<PriorityMask>(~(1u << (slot % kNumPriorities)));
      --backlogged_slots_;
    }
  }

  std::vector<Fifo> fifos_;
  std::vector<PriorityMask> backlogged_;
  int backlogged_slots_ = 0;  // FIFOs that hold packets
  uint64_t packets_ = 0;
  uint64_t pushes_ = 0;
};

}  // namespace fcswitch

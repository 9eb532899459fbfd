#pragma once
// The isolation queues (IQs) of every egress port of one switch (Pyrrha §4.3, Appendix E.3):
// a stack of free queue numbers per port, as the Tofino prototype's "multi-segment QueueID
// stack" keeps them; a queue taken when a root first needs it and given back when the last root
// using it lets go of it empty. When a port has no free queue left, a root hashes onto one of
// the queues in use (Pyrrha §4.5, "similar to BFC"), sharing it with the roots already there
// at the cost of their isolation; that is counted. Per queue: the bytes it holds, how many
// roots use it, and how many of those have it paused or soft-merging, so that a shared queue
// moves only when none of its roots holds it.

#include <cstdint>
#include <vector>

#include "pyrrha/root_id.h"

namespace fcswitch::pyrrha {

class IsolationQueuePool {
 public:
  IsolationQueuePool(uint16_t num_ports, uint16_t queues_per_port);

  struct Grant {
    uint16_t iq = 0;
    bool shared = false;  // no queue was free: `root` hashed onto one in use
  };
  Grant acquire(uint16_t egress, RootId root);
  // One root stops using the queue; with no user left it goes back on the free stack. Only
  // called on an empty queue (Pyrrha §4.3: "only when an empty IQ is in a resumed or
  // soft-merging state can it be marked as unassigned").
  void release(uint16_t egress, uint16_t iq);

  void add_bytes(uint16_t egress, uint16_t iq, uint32_t bytes) { at(egress, iq).bytes += bytes; }
  void remove_bytes(uint16_t egress, uint16_t iq, uint32_t bytes);
  uint64_t bytes(uint16_t egress, uint16_t iq) const { return at(egress, iq).bytes; }

  // One of the queue's roots moves in (+1) or out (-1) of the paused or soft-merging state.
  void count_paused(uint16_t egress, uint16_t iq, int delta) { at(egress, iq).paused += delta; }
  void count_soft(uint16_t egress, uint16_t iq, int delta) { at(egress, iq).soft += delta; }

  bool may_dequeue(uint16_t egress, uint16_t iq) const { return at(egress, iq).paused == 0; }
  uint16_t users(uint16_t egress, uint16_t iq) const { return at(egress, iq).users; }
  uint16_t paused_users(uint16_t egress, uint16_t iq) const { return at(egress, iq).paused; }
  uint16_t soft_users(uint16_t egress, uint16_t iq) const { return at(egress, iq).soft; }
  uint16_t in_use(uint16_t egress) const;
  // High-water marks, kept exactly as queues are taken (Pyrrha Fig. 7's question: how many IQs
  // a port, and a switch, need at once): the most in use at once over every port together,
  // and on any one port.
  uint32_t max_in_use() const { return max_in_use_; }
  uint16_t max_in_use_on_a_port() const { return max_in_use_on_a_port_; }
  uint16_t queues_per_port() const { return per_port_; }
  uint16_t num_ports() const { return num_ports_; }

 private:
  struct Queue {
    uint64_t bytes = 0;
    uint16_t users = 0;
    uint16_t paused = 0;
    uint16_t soft = 0;
  };
  Queue& at(uint16_t egress, uint16_t iq) { return queues_[size_t{egress} * per_port_ + iq]; }
  const Queue& at(uint16_t egress, uint16_t iq) const {
    return queues_[size_t{egress} * per_port_ + iq];
  }

  uint16_t num_ports_;
  uint16_t per_port_;
  std::vector<Queue> queues_;
  std::vector<uint16_t> free_;      // per port, a stack of per_port_ entries
  std::vector<uint16_t> free_top_;  // per port, how many of its stack are free
  uint32_t in_use_ = 0;             // over every port
  uint32_t max_in_use_ = 0;
  uint16_t max_in_use_on_a_port_ = 0;
};

}  // namespace fcswitch::pyrrha

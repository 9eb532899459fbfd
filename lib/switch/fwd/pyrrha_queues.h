#pragma once
// Pyrrha in FWD (Pyrrha §4; issue 20): the congestion-root table of the switch and the queues
// it sorts Pyrrha's class into — per egress port, the output queue (OQ, never paused) and the
// isolation queues (IQs) the table assigns at run time — held by FWD, which owns the table
// (every event reaches it in order: packets as FWD admits them, messages as RX passes them on
// behind the data). FWD moves the queues' heads into the port's egress ring with a byte
// deficit round robin over the OQ and the IQs that may send, only while the ring and TX's head
// hold less than `stage_bytes`: so the link's share is the round robin's, and the OQ's length
// that self-nomination watches is (up to that short stage) the port's backlog.
//
// Hierarchical IQs (Pyrrha §4.3, HIQ): an IQ's head leaves when the IQ is resumed or
// soft-merging; the table matches it against the farther roots, and it joins the next one's IQ
// at once (no wire time: the levels are in series), or, with none left, goes on towards the
// wire through the round robin.
//
// Order. Within a flow, packets leave in arrival order: every queue is a FIFO, a flow's packets
// go from near to far tiers only, and a packet leaving an IQ for the wire waits until every
// packet that reached the OQ before it has left (each packet carries its arrival number on the
// port). Without that last rule, a flow whose root appeared while its older packets sat in the
// OQ could overtake them when its IQ resumed.
//
// FWD's thread only; other threads read the published counters and gauges.

#include <rte_mbuf.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/owned_counter.h"
#include "params/pyrrha_params.h"
#include "pyrrha/congestion_root_table.h"
#include "pyrrha/pyrrha_message.h"
#include "switch/fwd/pyrrha_path_oracle.h"
#include "switch/switch_state.h"
#include "wire/frame_header.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {

class PyrrhaQueues {
 public:
  // `host_ports[p]`: port p faces a host (the table's leaf rule); `oracle` predicts paths.
  PyrrhaQueues(const config::PyrrhaSettings& settings,
               std::shared_ptr<const PyrrhaPathOracle> oracle, std::vector<bool> host_ports,
               SwitchState& state);

  int queue() const { return queue_; }
  // FWD admitted `m` to (out_port, queue()) and charged it: classify it (Pyrrha §4.2) and hold
  // it in the OQ or an IQ. Returns the bytes ahead of it in the queue it joined: the depth ECN
  // marks it by (its own queue, as Pyrrha §6.2.2 has HPCC's uncongested flows carry the OQ's
  // length and congested ones their IQ's, not the port's whole backlog).
  uint64_t hold(rte_mbuf* m, int in_port, int out_port, const wire::FrameHeader& header);
  // A PAUSE, RESUME or MERGE from downstream, or a DEALLOC from upstream, on `in_port`.
  void received(int in_port, const wire::PyrrhaFrame& frame);
  // `port`'s link went down or came back (Appendix A: a failed root port sends RESUME; its
  // IQs drain, and what reaches the dead link is lost there, counted by the link).
  void port_changed(int port, bool up);
  // Moves queue heads on (between tiers, and into the egress rings while the stage is short)
  // and sends the messages that waited for ring room. True when anything moved.
  bool serve();

  // Packets and bytes in the OQs and IQs over the ports. Any thread: FWD writes them as the
  // queues change (a store each per packet), so /metrics sees them as they are.
  uint64_t held_packets() const { return held_packets_.read(); }
  uint64_t held_bytes_total() const { return held_bytes_.read(); }
  // Control thread, after the lcores have stopped: hands back what the queues hold.
  unsigned take_held(rte_mbuf** out, unsigned max);

  // Published after each event that changed them (any thread).
  uint64_t messages_sent(pyrrha::MessageKind kind) const {
    return sent_[static_cast<size_t>(kind)].read();
  }
  uint64_t messages_received(pyrrha::MessageKind kind) const {
    return received_[static_cast<size_t>(kind)].read();
  }
  uint64_t iq_exhaustion() const { return iq_exhaustion_.read(); }
  uint64_t loop_guard_ignored() const { return loop_guard_ignored_.read(); }
  uint64_t table_full_ignored() const { return table_full_ignored_.read(); }
  uint64_t false_positive_roots() const { return false_positive_roots_.read(); }
  uint64_t roots_active() const { return roots_active_.read(); }
  uint64_t self_nominated_ports() const { return self_nominated_ports_.read(); }
  uint64_t iqs_in_use() const { return iqs_in_use_.read(); }
  uint64_t iqs_paused() const { return iqs_paused_.read(); }
  uint64_t iqs_soft_merging() const { return iqs_soft_merging_.read(); }
  uint64_t iqs_resumed() const { return iqs_resumed_.read(); }
  // High-water marks (Pyrrha Fig. 7), exact: the table keeps them as roots and IQs are taken.
  uint64_t max_roots_active() const { return max_roots_active_.read(); }
  uint64_t max_iqs_in_use() const { return max_iqs_in_use_.read(); }
  uint64_t max_iqs_on_a_port() const { return max_iqs_on_a_port_.read(); }
  // Turns an IQ's head waited for older OQ packets to leave first (see Order).
  uint64_t order_waits() const { return order_waits_.read(); }
  // Bytes held in the OQ and the IQs of `port` (FWD's thread, or stopped lcores).
  uint64_t held_bytes(int port) const { return ports_[port].held_bytes; }
  // FWD's thread, or stopped lcores: the table itself (tests, the report).
  const pyrrha::CongestionRootTable& table() const { return table_; }

 private:
  static constexpr size_t kMaxHops = PyrrhaPathOracle::kMaxHops;
  // DRR quantum: one full-size frame per turn, so each queue's turn sends at least one.
  static constexpr uint32_t kQuantumBytes = 1518;

  struct Entry {
    rte_mbuf* m = nullptr;
    uint64_t arrival = 0;  // its number among the packets held on the port
    uint32_t bytes = 0;
    uint16_t ingress = 0;
    uint8_t hops = 0;  // path length
    pyrrha::QueueChoice where;
    std::array<pyrrha::PathHop, kMaxHops> path;
    std::span<const pyrrha::PathHop> onward() const { return {path.data(), hops}; }
  };
  // A FIFO that grows by doubling and never shrinks: no allocation once a queue has been as
  // long as it will be.
  class Fifo {
   public:
    bool empty() const { return count_ == 0; }
    size_t size() const { return count_; }
    Entry& front() { return slots_[head_]; }
    const Entry& front() const { return slots_[head_]; }
    void push(const Entry& e);
    Entry pop();

   private:
    std::vector<Entry> slots_;
    size_t head_ = 0;
    size_t count_ = 0;
  };
  struct Port {
    std::vector<Fifo> queues;       // [0]: the OQ; [1 + iq]: IQ iq
    std::vector<uint32_t> deficit;  // per queue, bytes
    std::vector<uint16_t> active;   // queues holding packets, in round-robin order
    std::vector<bool> listed;       // per queue: in `active`
    size_t turn = 0;                // the position in `active` whose turn it is
    bool turn_started = false;      // that queue has had its quantum for this turn
    uint64_t held_bytes = 0;        // in all its queues
    uint64_t next_arrival = 0;
  };

  static size_t index_of(pyrrha::QueueChoice q) { return q.output() ? 0 : size_t{q.iq} + 1; }
  void push(int port, const Entry& e);
  // IQ q's head, if a farther root on its path has an IQ here, joins that IQ (Pyrrha §4.3):
  // true. A head bound for the wire stays: false. q's root must be resumed (or soft-merging).
  bool move_head_on(int port, size_t q);
  // Moves the heads of IQs that may leave into the farther tiers, while they go to an IQ.
  void advance_tiers(int port);
  bool serve_port(int port);
  bool may_leave(const Port& p, size_t q) const;
  // The head of queue `q` goes to the wire (the egress ring); its table event.
  void send_head(int port, size_t q);
  void send(std::span<const pyrrha::Message> messages);
  bool flush_messages();
  void publish();

  SwitchState& state_;
  std::shared_ptr<const PyrrhaPathOracle> oracle_;
  int queue_;
  uint64_t stage_bytes_;
  pyrrha::CongestionRootTable table_;
  std::vector<Port> ports_;
  std::vector<rte_mbuf*> to_ring_;  // one port's moves of one serve, enqueued together
  // Messages the rings had no room for, per port, in order.
  std::vector<std::vector<pyrrha::Message>> unsent_;
  uint64_t unsent_count_ = 0;
  OwnedGauge held_packets_;
  OwnedGauge held_bytes_;
  bool dirty_ = false;                    // a message went or came since the last publish
  uint64_t published_gauge_changes_ = 0;  // the table's gauge_changes() at the last publish
  uint64_t serves_since_publish_ = 0;
  uint64_t order_waits_local_ = 0;

  std::array<OwnedGauge, pyrrha::kMessageKinds> sent_;
  std::array<OwnedGauge, pyrrha::kMessageKinds> received_;
  OwnedGauge iq_exhaustion_;
  OwnedGauge loop_guard_ignored_;
  OwnedGauge table_full_ignored_;
  OwnedGauge false_positive_roots_;
  OwnedGauge roots_active_;
  OwnedGauge self_nominated_ports_;
  OwnedGauge iqs_in_use_;
  OwnedGauge iqs_paused_;
  OwnedGauge iqs_soft_merging_;
  OwnedGauge iqs_resumed_;
  OwnedGauge max_roots_active_;
  OwnedGauge max_iqs_in_use_;
  OwnedGauge max_iqs_on_a_port_;
  OwnedGauge order_waits_;
};

}  // namespace fcswitch

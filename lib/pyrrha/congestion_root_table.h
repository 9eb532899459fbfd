#pragma once
// lib/pyrrha — Pyrrha (../shared/papers/pyrrha.md), the pure core: one switch's congestion-root
// table and isolation queues as a state machine. Events go in as method calls; what the
// datapath must do comes out as a queue choice and messages to send. No clock (nothing here
// is timed), no thread, no DPDK; every table is sized at construction.
//
// Where the paper lives in the code:
//   §4.1 root identification — self-nomination: `enqueued` into an output queue (OQ) above
//        K_pause sends PAUSE(root = us:egress) to the packet's ingress, `dequeued` below
//        K_resume sends RESUME; a PAUSE from beyond a self-nominated port makes it a false
//        positive: MERGE to its upstreams (`on_pause`).
//   §4.2 congested-flow identification — `classify`: the packet's predicted onward path matched
//        against the table from near to far; the first root with an IQ on the egress wins.
//   §4.3 hierarchical IQs — `dequeued` from an IQ matches the farther roots only and returns the
//        next queue; soft-merging IQs; release of an empty resumed / soft-merging IQ.
//   §4.4 PAUSE/RESUME per (root, ingress) byte count of a non-root (the authors' iport_counter).
//   §4.5 IQ exhaustion → roots hash onto IQs in use (isolation_queue_pool.h); the routing-loop
//        guard (a PAUSE or MERGE naming us as the root is ignored).
//   Fig. 6 IQ states: kUnassigned → kPaused (PAUSE) ⇄ kResumed (RESUME); → kResumed (MERGE, new
//        root); kPaused/kResumed → kSoftMerging (MERGE, old root); kResumed/kSoftMerging and
//        empty → kUnassigned (DEALLOC sent for resumed, silently for soft-merging).
//   The authors' code — DEALLOC, sent downstream by a leaf whose IQ is empty and resumed,
//        releases the state down the tree (`check_and_send_dealloc`).
//   Appendix A — a failed root port sends RESUME upstream (`port_failed`; what it does for IQs
//        towards the port and children behind it goes beyond the paper, see there).
//   Appendix C (single-tier IQs with order marks) is not done: the tiers here are hierarchical.
//
// Order across a merge (Pyrrha §4.3): a soft-merging IQ stays matched by `classify` until it
// is empty and released, so packets of a flow that arrive after the MERGE queue behind the
// ones from before it, in the same FIFO; leaving it they are matched against the farther roots
// and enter the new root's IQ in arrival order. The soft-merging IQ is never paused, so it
// drains at the rate the datapath moves packets between its queues, not at the link rate.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "params/pyrrha_params.h"
#include "pyrrha/isolation_queue_pool.h"
#include "pyrrha/pyrrha_counters.h"
#include "pyrrha/pyrrha_message.h"
#include "pyrrha/root_id.h"
#include "pyrrha/root_index.h"

namespace fcswitch::pyrrha {

// The state of the IQ that an egress port holds for one root (Pyrrha Fig. 6).
enum class IqState : uint8_t { kUnassigned, kPaused, kResumed, kSoftMerging };

// Where a packet waits on its egress port: the OQ (level 0) or an IQ. `level` is the hop
// distance of the root the IQ belongs to, its index + 1 in the packet's path: the datapath keeps
// it with the packet (one byte) and hands it back with the same path on enqueue and dequeue.
struct QueueChoice {
  static constexpr uint16_t kOutputQueue = UINT16_MAX;
  uint16_t iq = kOutputQueue;
  uint8_t level = 0;

  bool output() const { return level == 0; }
  friend bool operator==(const QueueChoice&, const QueueChoice&) = default;
};

// Which upstream (ingress) port a root, or our own self-nominated egress port, controls: the
// authors' iport_paused / upstream_paused, where "absent" is kNone. A child stays kResumed after
// RESUME until its DEALLOC arrives: only then is this switch a leaf of that tree again.
enum class UpstreamState : uint8_t { kNone, kPaused, kResumed };

class CongestionRootTable {
 public:
  // `params` as config::pyrrha_params_problem accepts them (a 0 is raised to 1).
  // `host_ports[p]`: port p faces a host, which never sends DEALLOC; a resumed host there does
  // not keep a tree alive (the authors' ToR rule). Empty: no port faces a host.
  CongestionRootTable(uint32_t switch_id, uint16_t num_ports, const config::PyrrhaParams& params,
                      std::vector<bool> host_ports = {});

  // ---- data packets -----------------------------------------------------------------------
  // Pyrrha §4.2: the queue on `egress` for a packet whose onward path is `path` (path[0]: the
  // next switch and the port it will leave by, path[k]: k+1 hops away).
  QueueChoice classify(uint16_t egress, std::span<const PathHop> path) const {
    return match_from(egress, path, 0);
  }
  // Where the head of IQ `q` would go if it left now (Pyrrha §4.3: the farther roots, then
  // the OQ): what `dequeued` will return, without leaving.
  QueueChoice next_after(uint16_t egress, QueueChoice q, std::span<const PathHop> path) const {
    return q.output() ? QueueChoice{} : match_from(egress, path, q.level);
  }
  // A packet from `ingress` joined queue `q` of `egress`. OQ: self-nomination above K_pause.
  // IQ: the (root, ingress) count; above K_pause, PAUSE(root) to the ingress.
  std::span<const Message> enqueued(uint16_t egress, QueueChoice q, uint16_t ingress,
                                    uint32_t bytes, std::span<const PathHop> path);
  // May the head of IQ `iq` leave it (no root using it has it paused; Pyrrha §4.3).
  bool may_dequeue(uint16_t egress, uint16_t iq) const { return pool_.may_dequeue(egress, iq); }
  struct Dequeued {
    // From an IQ: the queue it goes to next (farther roots, then the OQ); the datapath enqueues
    // it there and calls `enqueued` for it. From the OQ: unused (the packet is on the wire).
    QueueChoice next;
    std::span<const Message> messages;
  };
  Dequeued dequeued(uint16_t egress, QueueChoice q, uint16_t ingress, uint32_t bytes,
                    std::span<const PathHop> path);

  // ---- control messages and port events ---------------------------------------------------
  // A PAUSE/RESUME/MERGE arriving on `port` (one of our egress ports, from downstream) or a
  // DEALLOC arriving on `port` (one of our ingress ports, from upstream).
  std::span<const Message> received(uint16_t port, const Message& message);
  // `port`'s link went down: what it held paused as a root is resumed, IQs towards it are
  // resumed so they drain (the datapath drops or re-routes what they hold), and no DEALLOC
  // goes out of it until `port_restored`.
  std::span<const Message> port_failed(uint16_t port);
  void port_restored(uint16_t port);

  // ---- views ------------------------------------------------------------------------------
  bool knows(RootId root) const { return index_.find(root) != RootIndex::kNone; }
  IqState state(RootId root, uint16_t egress) const;
  std::optional<uint16_t> iq_of(RootId root, uint16_t egress) const;
  std::optional<uint16_t> hop_of(RootId root) const;
  UpstreamState upstream(RootId root, uint16_t ingress) const;
  uint64_t root_ingress_bytes(RootId root, uint16_t ingress) const;
  UpstreamState self_upstream(uint16_t egress, uint16_t ingress) const {
    return self_upstream_[at(egress, ingress)];
  }
  uint64_t oq_bytes(uint16_t egress) const { return oq_bytes_[egress]; }
  const IsolationQueuePool& pool() const { return pool_; }
  const PyrrhaCounters& counters() const { return counters_; }
  PyrrhaGauges gauges() const;
  // Changes to what gauges() reports (roots, IQs and their states) so far: a reader republishes
  // them only when this moved, and never misses a change that came with no message.
  uint64_t gauge_changes() const { return gauge_changes_; }
  uint32_t switch_id() const { return switch_id_; }

 private:
  size_t at(size_t a, uint16_t port) const { return a * num_ports_ + port; }
  QueueChoice match_from(uint16_t egress, std::span<const PathHop> path, size_t from) const;
  void emit(MessageKind kind, RootId root, RootId old_root, uint16_t hop, uint16_t port);
  int32_t find_or_add(RootId root, uint16_t hop);
  void assign(int32_t slot, uint16_t egress);
  void unassign(int32_t slot, uint16_t egress);
  void set_state(int32_t slot, uint16_t egress, IqState next);
  void set_upstream(int32_t slot, uint16_t ingress, UpstreamState next);
  bool holds_nothing(int32_t slot) const;
  void free_root(int32_t slot);
  void check_and_send_dealloc(int32_t slot);
  void release_merged(int32_t slot, uint16_t egress);
  // The IQ at `e` (at(slot, egress)) stops draining into the root it soft-merged into, if any:
  // that root is checked (run_pending_checks) before the event's messages go out.
  void stop_merging_into(size_t e);
  // Every root but `slot` that uses IQ `iq` of `egress` is checked (run_pending_checks).
  void check_sharers(int32_t slot, uint16_t egress, uint16_t iq);
  // The leaf check (check_and_send_dealloc) of every root an IQ stopped draining into, or that
  // shares an IQ another root emptied, but
  // `receiving`, whose IQ a packet is about to join.
  void run_pending_checks(std::optional<RootId> receiving = std::nullopt);
  // MERGE{new root `slot`, old root `old_slot`} on `egress`: the old IQ soft-merges, the old
  // tree's children become the new root's and hear of it. True while the old IQ still holds
  // packets that will drain into the new root's.
  bool merge_old_tree(int32_t slot, int32_t old_slot, uint16_t egress, const Message& m);
  void on_pause(uint16_t egress, const Message& m);
  void on_resume(uint16_t egress, const Message& m);
  void on_merge(uint16_t egress, const Message& m);
  void on_dealloc(uint16_t ingress, const Message& m);

  uint32_t switch_id_;
  uint16_t num_ports_;
  uint64_t k_pause_bytes_;
  uint64_t k_resume_bytes_;
  std::vector<bool> host_ports_;

  RootIndex index_;
  uint32_t max_roots_active_ = 0;  // the most entries index_ has held at once
  uint64_t gauge_changes_ = 0;
  IsolationQueuePool pool_;
  // Per root slot.
  std::vector<RootId> root_ids_;
  std::vector<uint16_t> hops_;
  // How many ingress ports hold the root's tree here (see set_upstream): 0 makes us a leaf.
  std::vector<uint16_t> children_;
  // Per (slot, egress): the root its IQ soft-merges into.
  std::vector<std::optional<RootId>> merged_into_;
  std::vector<RootId> pending_checks_;  // roots to check before the event's messages go out
  // Per (slot, egress port).
  std::vector<IqState> iq_states_;
  std::vector<uint16_t> iqs_;
  // Per (slot, ingress port).
  std::vector<UpstreamState> upstream_;
  std::vector<uint64_t> ingress_bytes_;
  // Per our own egress port as a self-nominated root: per (egress, ingress), and the OQ.
  std::vector<UpstreamState> self_upstream_;
  std::vector<uint16_t> self_paused_;
  std::vector<uint64_t> oq_bytes_;
  std::vector<bool> port_down_;

  std::vector<Message> outbox_;  // what the current event asks for; reserved at construction
  PyrrhaCounters counters_;
};

}  // namespace fcswitch::pyrrha

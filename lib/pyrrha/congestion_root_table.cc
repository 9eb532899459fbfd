#include "pyrrha/congestion_root_table.h"

#include <algorithm>
#include <utility>

namespace fcswitch::pyrrha {

namespace {
constexpr size_t kMaxLevel = UINT8_MAX;

uint64_t minus(uint64_t have, uint32_t bytes) {
  return have > bytes ? have - bytes : 0;
}
}  // namespace

CongestionRootTable::CongestionRootTable(uint32_t switch_id, uint16_t num_ports,
                                         const config::PyrrhaParams& params,
                                         std::vector<bool> host_ports)
    : switch_id_(switch_id),
      num_ports_(num_ports),
      k_pause_bytes_(params.k_pause_bytes),
      k_resume_bytes_(params.k_resume_bytes),
      host_ports_(std::move(host_ports)),
      index_(params.max_roots),
      pool_(num_ports, params.max_isolation_queues),
      root_ids_(params.max_roots),
      hops_(params.max_roots, 0),
      children_(params.max_roots, 0),
      merged_into_(size_t{params.max_roots} * num_ports),
      iq_states_(size_t{params.max_roots} * num_ports, IqState::kUnassigned),
      iqs_(size_t{params.max_roots} * num_ports, QueueChoice::kOutputQueue),
      upstream_(size_t{params.max_roots} * num_ports, UpstreamState::kNone),
      ingress_bytes_(size_t{params.max_roots} * num_ports, 0),
      self_upstream_(size_t{num_ports} * num_ports, UpstreamState::kNone),
      self_paused_(num_ports, 0),
      oq_bytes_(num_ports, 0),
      port_down_(num_ports, false) {
  host_ports_.resize(num_ports, false);
  // The most one event sends: a MERGE or RESUME to every port, and a DEALLOC out of every
  // port. A port failure may send more; it is rare, and may grow this once.
  outbox_.reserve(size_t{num_ports} * 2 + 2);
}

// ---- matching (Pyrrha §4.2, §4.3) ----------------------------------------------------------

QueueChoice CongestionRootTable::match_from(uint16_t egress, std::span<const PathHop> path,
                                            size_t from) const {
  // Near to far: the nearest matched root is the first IQ tier; the farther ones are matched
  // again as the packet leaves it. A root counts only if it has an IQ on this egress port: a
  // root learned through another port does not control traffic leaving by this one.
  for (size_t k = from; k < path.size() && k < kMaxLevel; ++k) {
    const int32_t slot = index_.find(path[k]);
    if (slot == RootIndex::kNone) continue;
    const size_t e = at(slot, egress);
    if (iq_states_[e] == IqState::kUnassigned) continue;
    return QueueChoice{iqs_[e], static_cast<uint8_t>(k + 1)};
  }
  return QueueChoice{};
}

// ---- data packets ----------------------------------------------------------------------------

std::span<const Message> CongestionRootTable::enqueued(uint16_t egress, QueueChoice q,
                                                       uint16_t ingress, uint32_t bytes,
                                                       std::span<const PathHop> path) {
  outbox_.clear();
  if (q.output()) {
    // Pyrrha §4.1: an OQ above K_pause claims to be a root and pauses the ingress the packet
    // came from, once (the authors' CheckRootPause: strictly above, per ingress).
    oq_bytes_[egress] += bytes;
    UpstreamState& up = self_upstream_[at(egress, ingress)];
    if (oq_bytes_[egress] > k_pause_bytes_ && up != UpstreamState::kPaused) {
      up = UpstreamState::kPaused;
      ++self_paused_[egress];
      emit(MessageKind::kPause, RootId{switch_id_, egress}, RootId{}, 1, ingress);
    }
    return outbox_;
  }
  if (q.level == 0 || q.level > path.size()) return outbox_;
  const int32_t slot = index_.find(path[q.level - 1]);
  if (slot == RootIndex::kNone) return outbox_;
  pool_.add_bytes(egress, q.iq, bytes);
  uint64_t& count = ingress_bytes_[at(slot, ingress)];
  count += bytes;
  // Pyrrha §4.4 and the authors' CheckCIQPause: a non-root pauses an ingress whose bytes for
  // this root exceed K_pause; a soft-merging IQ belongs to no tree and pauses no one.
  if (iq_states_[at(slot, egress)] != IqState::kSoftMerging && count > k_pause_bytes_ &&
      upstream_[at(slot, ingress)] != UpstreamState::kPaused) {
    set_upstream(slot, ingress, UpstreamState::kPaused);
    emit(MessageKind::kPause, root_ids_[slot], RootId{}, static_cast<uint16_t>(hops_[slot] + 1),
         ingress);
  }
  return outbox_;
}

CongestionRootTable::Dequeued CongestionRootTable::dequeued(uint16_t egress, QueueChoice q,
                                                            uint16_t ingress, uint32_t bytes,
                                                            std::span<const PathHop> path) {
  outbox_.clear();
  if (q.output()) {
    oq_bytes_[egress] = minus(oq_bytes_[egress], bytes);
    if (self_paused_[egress] > 0 && oq_bytes_[egress] < k_resume_bytes_) {
      for (uint16_t i = 0; i < num_ports_; ++i) {
        UpstreamState& up = self_upstream_[at(egress, i)];
        if (up != UpstreamState::kPaused) continue;
        // A resumed host is no child of the tree: it never sends DEALLOC (the authors' ToR
        // rule), and a MERGE skips it.
        up = host_ports_[i] ? UpstreamState::kNone : UpstreamState::kResumed;
        emit(MessageKind::kResume, RootId{switch_id_, egress}, RootId{}, 1, i);
      }
      self_paused_[egress] = 0;
    }
    return Dequeued{QueueChoice{}, outbox_};
  }
  if (q.level == 0 || q.level > path.size()) return Dequeued{QueueChoice{}, outbox_};
  const QueueChoice next = match_from(egress, path, q.level);
  const int32_t slot = index_.find(path[q.level - 1]);
  if (slot == RootIndex::kNone) return Dequeued{next, outbox_};
  pool_.remove_bytes(egress, q.iq, bytes);
  // A shared IQ (Pyrrha §4.5: no free one was left) emptied by this root's packet: the other
  // roots using it may be left with nothing, and no packet of theirs will come to release them.
  if (pool_.users(egress, q.iq) > 1 && pool_.bytes(egress, q.iq) == 0)
    check_sharers(slot, egress, q.iq);
  uint64_t& count = ingress_bytes_[at(slot, ingress)];
  count = minus(count, bytes);
  const IqState state = iq_states_[at(slot, egress)];
  if (state != IqState::kSoftMerging && count < k_resume_bytes_ &&
      upstream_[at(slot, ingress)] == UpstreamState::kPaused) {
    set_upstream(slot, ingress, UpstreamState::kResumed);
    emit(MessageKind::kResume, root_ids_[slot], RootId{}, 0, ingress);
  }
  if (state == IqState::kSoftMerging) {
    release_merged(slot, egress);
  } else {
    check_and_send_dealloc(slot);
  }
  // The root whose IQ the packet joins next is about to hold it: not released under it (its
  // own dequeue checks it later).
  run_pending_checks(next.output() ? std::nullopt : std::optional<RootId>(path[next.level - 1]));
  return Dequeued{next, outbox_};
}

// ---- control messages ------------------------------------------------------------------------

std::span<const Message> CongestionRootTable::received(uint16_t port, const Message& m) {
  outbox_.clear();
  ++counters_.received[static_cast<size_t>(m.kind)];
  if (port >= num_ports_) {
    ++counters_.bad_port_ignored;
    return outbox_;
  }
  switch (m.kind) {
    case MessageKind::kPause:
      on_pause(port, m);
      break;
    case MessageKind::kResume:
      on_resume(port, m);
      break;
    case MessageKind::kMerge:
      on_merge(port, m);
      break;
    case MessageKind::kDealloc:
      on_dealloc(port, m);
      break;
  }
  run_pending_checks();
  return outbox_;
}

void CongestionRootTable::on_pause(uint16_t egress, const Message& m) {
  // Pyrrha §4.5: a PAUSE naming us went round a routing loop; obeying it would let our own OQ
  // wait on itself.
  if (m.root.switch_id == switch_id_) {
    ++counters_.loop_guard_ignored;
    return;
  }
  const int32_t slot = find_or_add(m.root, m.hop);
  if (slot == RootIndex::kNone) return;
  const bool initial = iq_states_[at(slot, egress)] == IqState::kUnassigned;
  if (initial) assign(slot, egress);
  set_state(slot, egress, IqState::kPaused);
  // Pyrrha §4.1: a self-nominated root hears of a root beyond it — it was a false positive.
  // Its upstreams become children of the real root (resumed: the real root's IQ here holds
  // them now) and learn of the merge. The authors merge only on the first PAUSE for the root.
  if (!initial) return;
  bool self_root = false;
  for (uint16_t i = 0; i < num_ports_ && !self_root; ++i) {
    self_root = self_upstream_[at(egress, i)] != UpstreamState::kNone;
  }
  if (!self_root) return;
  ++counters_.false_positive_roots;
  const RootId old_root{switch_id_, egress};
  for (uint16_t i = 0; i < num_ports_; ++i) {
    UpstreamState& old_up = self_upstream_[at(egress, i)];
    if (old_up == UpstreamState::kNone) continue;
    old_up = UpstreamState::kNone;
    set_upstream(slot, i, UpstreamState::kResumed);
    emit(MessageKind::kMerge, m.root, old_root, static_cast<uint16_t>(hops_[slot] + 1), i);
  }
  self_paused_[egress] = 0;
}

void CongestionRootTable::on_resume(uint16_t egress, const Message& m) {
  const int32_t slot = index_.find(m.root);
  if (slot == RootIndex::kNone) return;  // a DEALLOC of ours crossed it: nothing left to resume
  if (iq_states_[at(slot, egress)] != IqState::kPaused) return;
  set_state(slot, egress, IqState::kResumed);
  check_and_send_dealloc(slot);
}

void CongestionRootTable::on_merge(uint16_t egress, const Message& m) {
  if (m.root.switch_id == switch_id_) {
    ++counters_.loop_guard_ignored;
    return;
  }
  const int32_t slot = find_or_add(m.root, m.hop);
  if (slot == RootIndex::kNone) return;
  // The new root's IQ starts resumed (the authors' code): the real root pauses it when it
  // needs to, through its own PAUSE. One this switch already holds keeps its state: a PAUSE
  // for it must still be answered by a RESUME.
  if (iq_states_[at(slot, egress)] == IqState::kUnassigned) {
    assign(slot, egress);
    set_state(slot, egress, IqState::kResumed);
  }
  const int32_t old_slot = index_.find(m.old_root);
  const bool old_drains =
      old_slot != RootIndex::kNone && old_slot != slot && merge_old_tree(slot, old_slot, egress, m);
  // The sender of the MERGE now counts us as a resumed child of the new root and waits for our
  // DEALLOC. A leaf with nothing for the new root, here or draining into it from the old IQ,
  // sends it now: no packet will pass through its IQs to trigger the release, and the tree
  // would otherwise stay up after its traffic has gone.
  if (!old_drains) check_and_send_dealloc(slot);
}

bool CongestionRootTable::merge_old_tree(int32_t slot, int32_t old_slot, uint16_t egress,
                                         const Message& m) {
  if (iq_states_[at(old_slot, egress)] != IqState::kUnassigned) {
    set_state(old_slot, egress, IqState::kSoftMerging);
    stop_merging_into(at(old_slot, egress));  // a second MERGE: it drains into this root now
    merged_into_[at(old_slot, egress)] = m.root;
  }
  // Propagate to the old tree's children here, who become the new root's (resumed). A host
  // child that is not paused is skipped, as in the authors' ToR rule: it has nothing to merge.
  for (uint16_t i = 0; i < num_ports_; ++i) {
    const UpstreamState old_up = upstream_[at(old_slot, i)];
    if (old_up == UpstreamState::kNone) continue;
    set_upstream(old_slot, i, UpstreamState::kNone);
    if (host_ports_[i] && old_up != UpstreamState::kPaused) continue;
    set_upstream(slot, i, UpstreamState::kResumed);
    emit(MessageKind::kMerge, m.root, m.old_root, static_cast<uint16_t>(hops_[slot] + 1), i);
  }
  const bool drains = iq_states_[at(old_slot, egress)] == IqState::kSoftMerging &&
                      pool_.bytes(egress, iqs_[at(old_slot, egress)]) > 0;
  release_merged(old_slot, egress);
  return drains;
}

void CongestionRootTable::on_dealloc(uint16_t ingress, const Message& m) {
  // Only a resumed child may leave a tree: a PAUSE or MERGE may be in flight the other way.
  if (m.root.switch_id == switch_id_) {
    if (m.root.port >= num_ports_) return;
    UpstreamState& up = self_upstream_[at(m.root.port, ingress)];
    if (up == UpstreamState::kResumed) up = UpstreamState::kNone;
    return;
  }
  const int32_t slot = index_.find(m.root);
  if (slot == RootIndex::kNone) return;
  if (upstream_[at(slot, ingress)] != UpstreamState::kResumed) return;
  set_upstream(slot, ingress, UpstreamState::kNone);
  check_and_send_dealloc(slot);
}

std::span<const Message> CongestionRootTable::port_failed(uint16_t port) {
  outbox_.clear();
  if (port >= num_ports_) return outbox_;
  port_down_[port] = true;
  // As a root: nothing reaches the OQ of a dead port any more, so what it paused is resumed.
  for (uint16_t i = 0; i < num_ports_; ++i) {
    UpstreamState& up = self_upstream_[at(port, i)];
    if (up == UpstreamState::kPaused)
      emit(MessageKind::kResume, RootId{switch_id_, port}, {}, 0, i);
    up = UpstreamState::kNone;
  }
  self_paused_[port] = 0;
  for (uint32_t s = 0; s < root_ids_.size(); ++s) {
    const int32_t slot = static_cast<int32_t>(s);
    if (index_.find(root_ids_[s]) != slot) continue;
    // As a child of the port: no RESUME will come from a dead link. The IQ is resumed so its
    // packets drain (the datapath drops or re-routes them) and released once empty, silently:
    // there is no one to send DEALLOC to.
    const size_t e = at(slot, port);
    if (iq_states_[e] != IqState::kUnassigned) {
      set_state(slot, port, IqState::kResumed);
      if (pool_.bytes(port, iqs_[e]) == 0) unassign(slot, port);
      bool reachable = false;
      for (uint16_t p = 0; p < num_ports_ && !reachable; ++p) {
        reachable = p != port && iq_states_[at(slot, p)] != IqState::kUnassigned;
      }
      // No live port leads to the root any more: what we paused for it is resumed.
      if (!reachable) {
        for (uint16_t i = 0; i < num_ports_; ++i) {
          if (upstream_[at(slot, i)] != UpstreamState::kPaused) continue;
          set_upstream(slot, i, UpstreamState::kResumed);
          emit(MessageKind::kResume, root_ids_[slot], {}, 0, i);
        }
      }
    }
    // As a parent of the port: the children behind it are gone, as if they had sent DEALLOC.
    if (upstream_[at(slot, port)] == UpstreamState::kNone) continue;
    set_upstream(slot, port, UpstreamState::kNone);
    check_and_send_dealloc(slot);
  }
  run_pending_checks();
  return outbox_;
}

void CongestionRootTable::port_restored(uint16_t port) {
  if (port < num_ports_) port_down_[port] = false;
}

// ---- release (Pyrrha §4.3, the authors' CheckAndSendDealloc / ReleaseMergeCIQEntry) ----------

void CongestionRootTable::check_and_send_dealloc(int32_t slot) {
  // Only a leaf releases: no upstream still paused, and none resumed that could still send
  // traffic for this root (except hosts, which never send DEALLOC).
  if (children_[slot] > 0) return;
  bool released_all = true;
  const RootId root = root_ids_[slot];
  for (uint16_t e = 0; e < num_ports_; ++e) {
    const IqState state = iq_states_[at(slot, e)];
    if (state == IqState::kUnassigned) continue;
    if (state == IqState::kResumed && pool_.bytes(e, iqs_[at(slot, e)]) == 0) {
      unassign(slot, e);
      if (!port_down_[e]) emit(MessageKind::kDealloc, root, RootId{}, 0, e);
    } else {
      released_all = false;
    }
  }
  if (released_all) free_root(slot);
}

void CongestionRootTable::stop_merging_into(size_t e) {
  // The IQ no longer drains into that root's (released, paused again as its own root's, or
  // merged into another): the root's tree here may be left with nothing, and no packet of its
  // own will come to release it.
  if (merged_into_[e]) pending_checks_.push_back(*merged_into_[e]);
  merged_into_[e].reset();
}

void CongestionRootTable::check_sharers(int32_t slot, uint16_t egress, uint16_t iq) {
  for (uint32_t s = 0; s < root_ids_.size(); ++s) {
    const auto other = static_cast<int32_t>(s);
    if (other == slot || index_.find(root_ids_[s]) != other) continue;
    if (iq_states_[at(other, egress)] != IqState::kUnassigned && iqs_[at(other, egress)] == iq)
      pending_checks_.push_back(root_ids_[s]);
  }
}

void CongestionRootTable::run_pending_checks(std::optional<RootId> receiving) {
  while (!pending_checks_.empty()) {
    const RootId root = pending_checks_.back();
    pending_checks_.pop_back();
    if (root == receiving) continue;
    const int32_t slot = index_.find(root);
    if (slot != RootIndex::kNone) check_and_send_dealloc(slot);
  }
}

void CongestionRootTable::release_merged(int32_t slot, uint16_t egress) {
  const size_t e = at(slot, egress);
  if (iq_states_[e] == IqState::kSoftMerging && pool_.bytes(egress, iqs_[e]) == 0) {
    unassign(slot, egress);
  }
  if (holds_nothing(slot)) free_root(slot);
}

// ---- table upkeep ----------------------------------------------------------------------------

int32_t CongestionRootTable::find_or_add(RootId root, uint16_t hop) {
  bool inserted = false;
  const int32_t slot = index_.insert(root, inserted);
  if (slot == RootIndex::kNone) {
    ++counters_.table_full_ignored;
    return slot;
  }
  if (inserted) {
    root_ids_[slot] = root;
    hops_[slot] = hop;
    max_roots_active_ = std::max(max_roots_active_, index_.size());
    ++gauge_changes_;
  }
  return slot;
}

void CongestionRootTable::assign(int32_t slot, uint16_t egress) {
  const IsolationQueuePool::Grant grant = pool_.acquire(egress, root_ids_[slot]);
  ++gauge_changes_;
  if (grant.shared) ++counters_.iq_exhaustion;
  iqs_[at(slot, egress)] = grant.iq;
  iq_states_[at(slot, egress)] = IqState::kResumed;
}

void CongestionRootTable::unassign(int32_t slot, uint16_t egress) {
  set_state(slot, egress, IqState::kResumed);
  const size_t e = at(slot, egress);
  pool_.release(egress, iqs_[e]);
  ++gauge_changes_;
  stop_merging_into(e);
  iqs_[e] = QueueChoice::kOutputQueue;
  iq_states_[e] = IqState::kUnassigned;
}

void CongestionRootTable::set_state(int32_t slot, uint16_t egress, IqState next) {
  const size_t e = at(slot, egress);
  const IqState prev = iq_states_[e];
  if (prev == next) return;
  // An unassigned IQ has no queue to count on; `assign` makes it kResumed first.
  if (prev == IqState::kUnassigned) return;
  ++gauge_changes_;
  if (prev == IqState::kSoftMerging) stop_merging_into(e);
  const uint16_t iq = iqs_[e];
  if (prev == IqState::kPaused) pool_.count_paused(egress, iq, -1);
  if (prev == IqState::kSoftMerging) pool_.count_soft(egress, iq, -1);
  if (next == IqState::kPaused) pool_.count_paused(egress, iq, +1);
  if (next == IqState::kSoftMerging) pool_.count_soft(egress, iq, +1);
  iq_states_[e] = next;
}

void CongestionRootTable::set_upstream(int32_t slot, uint16_t ingress, UpstreamState next) {
  UpstreamState& up = upstream_[at(slot, ingress)];
  // A child that keeps the tree alive here: paused, or resumed and able to send DEALLOC.
  const auto holds = [&](UpstreamState u) {
    return u == UpstreamState::kPaused || (u == UpstreamState::kResumed && !host_ports_[ingress]);
  };
  children_[slot] = static_cast<uint16_t>(children_[slot] - holds(up) + holds(next));
  up = next;
}

bool CongestionRootTable::holds_nothing(int32_t slot) const {
  for (uint16_t p = 0; p < num_ports_; ++p) {
    if (iq_states_[at(slot, p)] != IqState::kUnassigned) return false;
    if (upstream_[at(slot, p)] != UpstreamState::kNone) return false;
  }
  return true;
}

void CongestionRootTable::free_root(int32_t slot) {
  for (uint16_t p = 0; p < num_ports_; ++p) {
    if (iq_states_[at(slot, p)] != IqState::kUnassigned) unassign(slot, p);
    set_upstream(slot, p, UpstreamState::kNone);
    ingress_bytes_[at(slot, p)] = 0;
  }
  index_.erase(root_ids_[slot]);
  ++gauge_changes_;
  hops_[slot] = 0;
}

void CongestionRootTable::emit(MessageKind kind, RootId root, RootId old_root, uint16_t hop,
                               uint16_t port) {
  ++counters_.sent[static_cast<size_t>(kind)];
  outbox_.push_back(Message{kind, root, old_root, hop, port});
}

// ---- views -----------------------------------------------------------------------------------

IqState CongestionRootTable::state(RootId root, uint16_t egress) const {
  const int32_t slot = index_.find(root);
  return slot == RootIndex::kNone ? IqState::kUnassigned : iq_states_[at(slot, egress)];
}

std::optional<uint16_t> CongestionRootTable::iq_of(RootId root, uint16_t egress) const {
  const int32_t slot = index_.find(root);
  if (slot == RootIndex::kNone || iq_states_[at(slot, egress)] == IqState::kUnassigned) {
    return std::nullopt;
  }
  return iqs_[at(slot, egress)];
}

std::optional<uint16_t> CongestionRootTable::hop_of(RootId root) const {
  const int32_t slot = index_.find(root);
  if (slot == RootIndex::kNone) return std::nullopt;
  return hops_[slot];
}

UpstreamState CongestionRootTable::upstream(RootId root, uint16_t ingress) const {
  const int32_t slot = index_.find(root);
  return slot == RootIndex::kNone ? UpstreamState::kNone : upstream_[at(slot, ingress)];
}

uint64_t CongestionRootTable::root_ingress_bytes(RootId root, uint16_t ingress) const {
  const int32_t slot = index_.find(root);
  return slot == RootIndex::kNone ? 0 : ingress_bytes_[at(slot, ingress)];
}

PyrrhaGauges CongestionRootTable::gauges() const {
  PyrrhaGauges g;
  g.roots_active = index_.size();
  g.max_roots_active = max_roots_active_;
  g.max_iqs_in_use = pool_.max_in_use();
  g.max_iqs_on_a_port = pool_.max_in_use_on_a_port();
  for (uint16_t e = 0; e < num_ports_; ++e) {
    if (self_paused_[e] > 0) {
      ++g.self_nominated_ports;
    } else {
      for (uint16_t i = 0; i < num_ports_; ++i) {
        if (self_upstream_[at(e, i)] != UpstreamState::kNone) {
          ++g.self_nominated_ports;
          break;
        }
      }
    }
    for (uint16_t q = 0; q < pool_.queues_per_port(); ++q) {
      const uint16_t users = pool_.users(e, q);
      if (users == 0) continue;
      ++g.iqs_in_use;
      if (pool_.paused_users(e, q) > 0) {
        ++g.iqs_paused;
      } else if (pool_.soft_users(e, q) == users) {
        ++g.iqs_soft_merging;
      } else {
        ++g.iqs_resumed;
      }
    }
  }
  return g;
}

}  // namespace fcswitch::pyrrha

#include "switch/fwd/pyrrha_queues.h"

#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <algorithm>
#include <stdexcept>

#include "switch/burst.h"
#include "switch/flow_key.h"
#include "switch/pyrrha_wire.h"

namespace fcswitch {

namespace {
// Gauges are a scan of the table (ports × IQs): taken after every message, and every this many
// serves besides, so that silent changes (a soft-merging IQ released) show too.
constexpr uint64_t kPublishEveryServes = 1024;
}  // namespace

void PyrrhaQueues::Fifo::push(const Entry& e) {
  if (count_ == slots_.size()) {
    std::vector<Entry> grown(std::max<size_t>(16, slots_.size() * 2));
    for (size_t i = 0; i < count_; ++i) grown[i] = slots_[(head_ + i) % slots_.size()];
    slots_ = std::move(grown);
    head_ = 0;
  }
  slots_[(head_ + count_) % slots_.size()] = e;
  ++count_;
}

PyrrhaQueues::Entry PyrrhaQueues::Fifo::pop() {
  Entry e = slots_[head_];
  head_ = (head_ + 1) % slots_.size();
  --count_;
  return e;
}

PyrrhaQueues::PyrrhaQueues(const config::PyrrhaSettings& settings,
                           std::shared_ptr<const PyrrhaPathOracle> oracle,
                           std::vector<bool> host_ports, SwitchState& state)
    : state_(state),
      oracle_(std::move(oracle)),
      queue_(settings.priority),
      stage_bytes_(settings.stage_bytes),
      table_(settings.switch_id, static_cast<uint16_t>(state.ports), settings.table,
             std::move(host_ports)),
      ports_(state.ports),
      unsent_(state.ports) {
  if (state.pyrrha_rings.size() != static_cast<size_t>(state.ports))
    throw std::invalid_argument("Pyrrha needs the switch's message rings (add_pyrrha_rings)");
  for (Port& p : ports_) {
    const size_t queues = size_t{settings.table.max_isolation_queues} + 1;
    p.queues.resize(queues);
    p.deficit.resize(queues, 0);
    p.listed.resize(queues, false);
  }
  to_ring_.reserve(kBurstSize);
}

void PyrrhaQueues::push(int port, const Entry& e) {
  Port& p = ports_[port];
  const size_t q = index_of(e.where);
  p.queues[q].push(e);
  if (!p.listed[q]) {
    p.listed[q] = true;
    p.active.push_back(static_cast<uint16_t>(q));
  }
}

uint64_t PyrrhaQueues::hold(rte_mbuf* m, int in_port, int out_port,
                            const wire::FrameHeader& header) {
  Entry e;
  e.m = m;
  e.bytes = rte_pktmbuf_pkt_len(m);
  e.ingress = static_cast<uint16_t>(in_port);
  Port& p = ports_[out_port];
  e.arrival = p.next_arrival++;
  if (oracle_) {
    const auto key = flow_key(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), header);
    e.hops = static_cast<uint8_t>(oracle_->onward_path(out_port, header.dst, key, e.path));
  }
  const auto egress = static_cast<uint16_t>(out_port);
  e.where = table_.classify(egress, e.onward());
  const uint64_t ahead =
      e.where.output() ? table_.oq_bytes(egress) : table_.pool().bytes(egress, e.where.iq);
  push(out_port, e);
  p.held_bytes += e.bytes;
  held_packets_.set(held_packets_.read() + 1);
  held_bytes_.set(held_bytes_.read() + e.bytes);
  send(table_.enqueued(egress, e.where, e.ingress, e.bytes, e.onward()));
  return ahead;
}

void PyrrhaQueues::received(int in_port, const wire::PyrrhaFrame& frame) {
  const pyrrha::Message m = to_pyrrha_message(frame, static_cast<uint16_t>(in_port));
  send(table_.received(static_cast<uint16_t>(in_port), m));
  dirty_ = true;
}

void PyrrhaQueues::port_changed(int port, bool up) {
  const auto p = static_cast<uint16_t>(port);
  if (up) {
    table_.port_restored(p);
  } else {
    send(table_.port_failed(p));
  }
  dirty_ = true;
}

void PyrrhaQueues::send(std::span<const pyrrha::Message> messages) {
  for (const pyrrha::Message& m : messages) {
    dirty_ = true;
    std::vector<pyrrha::Message>& waiting = unsent_[m.port];
    // Behind what already waits for this port: a port's messages keep their order.
    pyrrha::Message copy = m;  // the ring API takes a non-const pointer
    if (waiting.empty() &&
        rte_ring_sp_enqueue_elem(state_.pyrrha_rings[m.port].get(), &copy, sizeof(copy)) == 0)
      continue;
    waiting.push_back(m);
    ++unsent_count_;
  }
}

bool PyrrhaQueues::flush_messages() {
  if (unsent_count_ == 0) return false;
  bool sent = false;
  for (size_t port = 0; port < unsent_.size(); ++port) {
    std::vector<pyrrha::Message>& waiting = unsent_[port];
    if (waiting.empty()) continue;
    const unsigned n = rte_ring_sp_enqueue_burst_elem(
        state_.pyrrha_rings[port].get(), waiting.data(), sizeof(pyrrha::Message),
        static_cast<unsigned>(waiting.size()), nullptr);
    waiting.erase(waiting.begin(), waiting.begin() + n);
    unsent_count_ -= n;
    sent |= n > 0;
  }
  return sent;
}

bool PyrrhaQueues::move_head_on(int port, size_t q) {
  Port& p = ports_[port];
  Fifo& fifo = p.queues[q];
  const auto egress = static_cast<uint16_t>(port);
  if (table_.next_after(egress, fifo.front().where, fifo.front().onward()).output()) return false;
  Entry e = fifo.pop();
  const auto left = table_.dequeued(egress, e.where, e.ingress, e.bytes, e.onward());
  send(left.messages);
  e.where = left.next;
  push(port, e);
  send(table_.enqueued(egress, e.where, e.ingress, e.bytes, e.onward()));
  return true;
}

void PyrrhaQueues::advance_tiers(int port) {
  Port& p = ports_[port];
  const auto egress = static_cast<uint16_t>(port);
  // By index: a move may list another queue at the end, which is then visited too. A head
  // bound for the wire stops its queue here; the round robin sends it, and moves on what
  // comes behind it (serve_port).
  for (size_t i = 0; i < p.active.size(); ++i) {
    const size_t q = p.active[i];
    if (q == 0) continue;
    Fifo& fifo = p.queues[q];
    while (!fifo.empty() && table_.may_dequeue(egress, static_cast<uint16_t>(q - 1)) &&
           move_head_on(port, q)) {
    }
  }
}

bool PyrrhaQueues::may_leave(const Port& p, size_t q) const {
  if (q == 0) return true;
  const Entry& head = p.queues[q].front();
  // See Order in the header: nothing that reached the OQ before it is still there.
  const Fifo& oq = p.queues[0];
  return oq.empty() || oq.front().arrival > head.arrival;
}

void PyrrhaQueues::send_head(int port, size_t q) {
  Port& p = ports_[port];
  Entry e = p.queues[q].pop();
  const auto egress = static_cast<uint16_t>(port);
  // From an IQ the table says the OQ is next (move_head_on moved every other head): the packet
  // passes through it to the wire, so it is not counted in the OQ's length.
  send(table_.dequeued(egress, e.where, e.ingress, e.bytes, e.onward()).messages);
  p.held_bytes -= e.bytes;
  held_packets_.set(held_packets_.read() - 1);
  held_bytes_.set(held_bytes_.read() - e.bytes);
  to_ring_.push_back(e.m);
}

bool PyrrhaQueues::serve_port(int port) {
  Port& p = ports_[port];
  const auto egress = static_cast<uint16_t>(port);
  advance_tiers(port);
  rte_ring* ring = state_.egress_ring_to_fill(port, queue_, 0);
  const uint64_t depth = state_.egress_depth[port]->value(queue_);
  // What waits beyond our queues: the egress ring, TX's head and what the NIC has not taken.
  uint64_t stage = depth > p.held_bytes ? depth - p.held_bytes : 0;
  unsigned room = std::min<unsigned>(rte_ring_free_count(ring), kBurstSize);
  size_t idle = 0;  // queues visited in a row that may not send (paused, or order)
  while (!p.active.empty() && stage < stage_bytes_ && room > 0 && idle < p.active.size()) {
    if (p.turn >= p.active.size()) p.turn = 0;
    const size_t q = p.active[p.turn];
    Fifo& fifo = p.queues[q];
    if (fifo.empty()) {
      // Emptied by advance_tiers (or by the last turn): out of the round until it holds again.
      p.listed[q] = false;
      p.deficit[q] = 0;
      p.turn_started = false;
      p.active.erase(p.active.begin() + static_cast<std::ptrdiff_t>(p.turn));
      idle = 0;  // the round is smaller: count the visits that send nothing afresh
      continue;
    }
    const bool paused = q != 0 && !table_.may_dequeue(egress, static_cast<uint16_t>(q - 1));
    if (paused || !may_leave(p, q)) {
      if (!paused) ++order_waits_local_;
      p.deficit[q] = 0;  // a queue that cannot send does not save up turns
      p.turn_started = false;
      ++p.turn;
      ++idle;
      continue;
    }
    // A turn gets one quantum; a turn the stage cut short goes on with what it has left.
    if (!p.turn_started) {
      p.deficit[q] += kQuantumBytes;
      p.turn_started = true;
    }
    while (!fifo.empty() && stage < stage_bytes_ && room > 0) {
      // An IQ's packets behind one bound for the wire may be bound for a farther root's IQ
      // (§4.3): they go there, in their order, and never to the wire from here — past their
      // flow's older packets in that IQ, or while that root is paused.
      if (q != 0 && move_head_on(port, q)) continue;
      if (fifo.front().bytes > p.deficit[q] || !may_leave(p, q)) break;
      p.deficit[q] -= fifo.front().bytes;
      stage += fifo.front().bytes;
      --room;
      send_head(port, q);
    }
    if (stage >= stage_bytes_ || room == 0) break;  // its turn goes on next time
    p.turn_started = false;
    if (fifo.empty()) p.deficit[q] = 0;
    ++p.turn;
    // A queue that may send but whose head is larger than its deficit sends in a later turn
    // (its deficit grows each turn): only queues that may not send count as idle.
    idle = 0;
  }
  if (to_ring_.empty()) return false;
  // Always fits: `room` was read from the ring, whose only producer is FWD.
  rte_ring_sp_enqueue_bulk(ring, reinterpret_cast<void**>(to_ring_.data()),
                           static_cast<unsigned>(to_ring_.size()), nullptr);
  state_.egress_enqueued[port].add(to_ring_.size());
  state_.tx_wakes.mark(port);
  to_ring_.clear();
  return true;
}

bool PyrrhaQueues::serve() {
  bool moved = flush_messages();
  for (int port = 0; port < static_cast<int>(ports_.size()); ++port)
    if (!ports_[port].active.empty()) moved |= serve_port(port);
  moved |= flush_messages();
  // A release after the last packet left sends no message: the table's change count catches it,
  // so what is published at the end of a run is the table's final state.
  if (dirty_ || table_.gauge_changes() != published_gauge_changes_ ||
      ++serves_since_publish_ >= kPublishEveryServes)
    publish();
  return moved;
}

unsigned PyrrhaQueues::take_held(rte_mbuf** out, unsigned max) {
  unsigned n = 0;
  for (Port& p : ports_) {
    for (Fifo& fifo : p.queues) {
      while (!fifo.empty() && n < max) {
        const Entry e = fifo.pop();
        p.held_bytes -= e.bytes;
        held_packets_.set(held_packets_.read() - 1);
        held_bytes_.set(held_bytes_.read() - e.bytes);
        out[n++] = e.m;
      }
    }
  }
  return n;
}

void PyrrhaQueues::publish() {
  dirty_ = false;
  published_gauge_changes_ = table_.gauge_changes();
  serves_since_publish_ = 0;
  const pyrrha::PyrrhaCounters& c = table_.counters();
  for (size_t k = 0; k < pyrrha::kMessageKinds; ++k) {
    sent_[k].set(c.sent[k]);
    received_[k].set(c.received[k]);
  }
  iq_exhaustion_.set(c.iq_exhaustion);
  loop_guard_ignored_.set(c.loop_guard_ignored);
  table_full_ignored_.set(c.table_full_ignored);
  false_positive_roots_.set(c.false_positive_roots);
  const pyrrha::PyrrhaGauges g = table_.gauges();
  roots_active_.set(g.roots_active);
  self_nominated_ports_.set(g.self_nominated_ports);
  iqs_in_use_.set(g.iqs_in_use);
  iqs_paused_.set(g.iqs_paused);
  iqs_soft_merging_.set(g.iqs_soft_merging);
  iqs_resumed_.set(g.iqs_resumed);
  max_roots_active_.set(g.max_roots_active);
  max_iqs_in_use_.set(g.max_iqs_in_use);
  max_iqs_on_a_port_.set(g.max_iqs_on_a_port);
  order_waits_.set(order_waits_local_);
}

}  // namespace fcswitch

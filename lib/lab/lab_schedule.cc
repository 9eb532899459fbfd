#include "lab/lab_schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/units.h"

namespace fcswitch::lab {

LabSchedule::LabSchedule(std::vector<ScheduledNode> nodes, std::vector<ScheduledLink> links)
    : nodes_(std::move(nodes)),
      links_(std::move(links)),
      node_state_(nodes_.size()),
      switch_timers_(nodes_.size()),
      port_order_(nodes_.size()),
      link_state_(links_.size()),
      next_nodes_(nodes_.size()),
      next_links_(links_.size()),
      round_nodes_(nodes_.size()),
      round_links_(links_.size()) {
  for (size_t n = 0; n < nodes_.size(); ++n) {
    ScheduledNode& node = nodes_[n];
    node.alloc_failures = &(node.host ? node.host->state() : node.sw->state()).alloc_failures;
    node_state_[n].alloc_failures = alloc_failures(int(n));
    if (node.host) continue;
    node.fwd_may_hold = node.fwd && node.fwd->may_hold();
    if (!node.tx_wakes || !node.fwd_inputs)
      throw std::invalid_argument(
          fmt::format("lab schedule: switch node {} without its wake sets", n));
    SwitchTimers& timers = switch_timers_[n];
    for (const ScheduledTask& t : node.tasks) {
      if (t.role != ScheduledTask::Role::kTransmitter) continue;
      if (static_cast<size_t>(t.port) >= timers.tx.size()) timers.tx.resize(t.port + 1);
      timers.tx[t.port] = t.tx;
    }
    timers.ticks.assign(timers.tx.size(), kNeverTicks);
    timers.polled.assign(timers.tx.size(), 0);
    node.tx_wakes->enable(static_cast<int>(timers.tx.size()));
    node.tx_wakes->mark_all();
    node.fwd_inputs->enable(static_cast<int>(timers.tx.size()));
    node.fwd_inputs->mark_all();
    take_port_order(n);
  }
  for (const ScheduledLink& link : links_) {
    if (link.from_node < 0) receiving_ends_.push_back(static_cast<int>(receiver_of_link_.size()));
    if (link.to_node < 0) {  // its receiving end is another schedule's
      receiver_of_link_.push_back({nullptr, nullptr});
      continue;
    }
    ScheduledTask* receiver = nullptr;
    for (ScheduledTask& t : nodes_[link.to_node].tasks)
      if (t.role == ScheduledTask::Role::kReceiver && t.input == link.into) receiver = &t;
    if (!receiver)
      throw std::invalid_argument(
          fmt::format("lab schedule: no receiver of node {} reads its link's ring", link.to_node));
    PortOrder& order = port_order_[link.to_node];
    receiver_of_link_.push_back({receiver, order.receivers.empty() ? nullptr : &order.due_inputs});
  }
}

void LabSchedule::take_port_order(size_t n) {
  const std::vector<ScheduledTask>& tasks = nodes_[n].tasks;
  const size_t ports = switch_timers_[n].tx.size();
  if (tasks.size() != 2 * ports + 1) return;
  using Role = ScheduledTask::Role;
  for (size_t p = 0; p < ports; ++p)
    if (tasks[p].role != Role::kReceiver || tasks[p].port != static_cast<int>(p) ||
        tasks[ports + 1 + p].role != Role::kTransmitter ||
        tasks[ports + 1 + p].port != static_cast<int>(p))
      return;
  if (tasks[ports].role != Role::kConsumer) return;
  PortOrder& order = port_order_[n];
  for (size_t p = 0; p < ports; ++p) {
    order.receivers.push_back(&nodes_[n].tasks[p]);
    order.transmitters.push_back(&nodes_[n].tasks[ports + 1 + p]);
  }
  order.consumer = &nodes_[n].tasks[ports];
  order.due_inputs.enable(static_cast<int>(ports));
  order.due_inputs.mark_all();
}

void LabSchedule::wake_node(int node) {
  next_nodes_.set(static_cast<size_t>(node));
}

void LabSchedule::wake_link(int link) {
  next_links_.set(static_cast<size_t>(link));
}

void LabSchedule::wake_all() {
  for (PortOrder& order : port_order_) order.due_inputs.mark_all();
  for (ScheduledNode& node : nodes_) {
    for (ScheduledTask& t : node.tasks) t.input_due = true;
    if (node.host) continue;
    node.tx_wakes->mark_all();
    node.fwd_inputs->mark_all();
  }
  for (size_t n = 0; n < nodes_.size(); ++n) wake_node(static_cast<int>(n));
  for (size_t l = 0; l < links_.size(); ++l) wake_link(static_cast<int>(l));
}

uint64_t LabSchedule::alloc_failures(int node) const {
  return nodes_[node].alloc_failures->load(std::memory_order_relaxed);
}

uint64_t LabSchedule::node_timer(int node, uint64_t now) {
  const ScheduledNode& n = nodes_[node];
  if (n.host) return n.host->next_action_ticks(now);
  // The earliest of its TX tasks' next actions, reading only those this step polled.
  SwitchTimers& timers = switch_timers_[node];
  uint64_t next = kNeverTicks;
  for (size_t p = 0; p < timers.tx.size(); ++p) {
    if (timers.polled[p]) {
      timers.polled[p] = 0;
      timers.ticks[p] = timers.tx[p]->next_action_ticks();
    }
    next = std::min(next, timers.ticks[p]);
  }
  return next;
}

void LabSchedule::mark_due_transmitters(int node, uint64_t now) {
  const SwitchTimers& timers = switch_timers_[node];
  for (size_t p = 0; p < timers.ticks.size(); ++p)
    if (timers.ticks[p] <= now) nodes_[node].tx_wakes->mark(static_cast<int>(p));
}

bool LabSchedule::poll_receiver(NodeState& s, ScheduledTask& t, uint64_t now) {
  const bool moved = t.task->run_once(now);
  if (moved) s.consumer_due = true;
  return moved;
}

bool LabSchedule::poll_consumer(const ScheduledNode& n, NodeState& s, ScheduledTask& t,
                                uint64_t now) {
  // An input-queued FWD also has work while its input FIFOs hold packets: TX may have made
  // room for their heads.
  if (!s.consumer_due && !(n.fwd_may_hold && n.fwd->held())) return false;
  // A consumer that found nothing had empty inputs; a busy one may have left frames.
  s.consumer_due = t.task->run_once(now);
  return s.consumer_due;
}

bool LabSchedule::poll_transmitter(int node, ScheduledTask& t, uint64_t now) {
  ScheduledNode& n = nodes_[node];
  // Unmarked before its poll: what the poll itself changes (its own releases) marks it.
  n.tx_wakes->clear(t.port);
  const bool moved = t.task->run_once(now);
  if (!t.tx->idle_until_input(now)) n.tx_wakes->mark(t.port);
  switch_timers_[node].polled[t.port] = 1;
  // Only a TX task that moved something can have put frames into its port's ring.
  if (moved && static_cast<size_t>(t.port) < n.out.size())
    if (const auto& [ring, link] = n.out[t.port]; ring && !ring->empty()) wake_link(link);
  return moved;
}

bool LabSchedule::poll_tasks(int node, uint64_t now) {
  ScheduledNode& n = nodes_[node];
  NodeState& s = node_state_[node];
  bool busy = false;
  for (ScheduledTask& t : n.tasks) {
    switch (t.role) {
      case ScheduledTask::Role::kReceiver:
        if (!t.input_due) break;
        if (t.input->empty()) {
          t.input_due = false;  // until its link delivers again
          break;
        }
        busy |= poll_receiver(s, t, now);
        break;
      case ScheduledTask::Role::kConsumer:
        busy |= poll_consumer(n, s, t, now);
        break;
      case ScheduledTask::Role::kTransmitter:
        if (n.tx_wakes->marked(t.port)) busy |= poll_transmitter(node, t, now);
        break;
      case ScheduledTask::Role::kOther:
        busy |= t.task->run_once(now);
        break;
    }
  }
  return busy;
}

bool LabSchedule::poll_by_port(int node, uint64_t now) {
  PortOrder& order = port_order_[node];
  NodeState& s = node_state_[node];
  const int ports = static_cast<int>(order.receivers.size());
  bool busy = false;
  order.due_inputs.for_each_ascending(ports, [&](int port) {
    ScheduledTask& t = *order.receivers[static_cast<size_t>(port)];
    if (t.input->empty()) {
      order.due_inputs.clear(port);  // until its link delivers again
      return;
    }
    busy |= poll_receiver(s, t, now);
  });
  busy |= poll_consumer(nodes_[node], s, *order.consumer, now);
  nodes_[node].tx_wakes->for_each_ascending(ports, [&](int port) {
    busy |= poll_transmitter(node, *order.transmitters[static_cast<size_t>(port)], now);
  });
  return busy;
}

void LabSchedule::poll_node(int node, uint64_t now) {
  ScheduledNode& n = nodes_[node];
  NodeState& s = node_state_[node];
  ++node_polls_;
  const bool busy =
      port_order_[node].receivers.empty() ? poll_tasks(node, now) : poll_by_port(node, now);
  if (!s.touched) {
    s.touched = true;
    touched_nodes_.push_back(node);
  }
  // Only a busy node can have put frames into its TX rings (an idle one, such as a starved
  // node polled every round, would wake its links round after round for nothing); a switch's
  // TX tasks looked at their own after their poll (above).
  if (busy) {
    wake_node(node);
    if (n.host)
      for (const auto& [ring, link] : n.out)
        if (ring && !ring->empty()) wake_link(link);
  }
  // A node that could not allocate waits for frames freed anywhere: poll it every round, as
  // a full poll does, until it stops failing.
  const uint64_t failures = alloc_failures(node);
  const bool starved = failures != s.alloc_failures;
  s.alloc_failures = failures;
  if (starved != s.starved) {
    s.starved = starved;
    if (starved) {
      starved_.push_back(node);
    } else {
      starved_.erase(std::find(starved_.begin(), starved_.end(), node));
    }
  }
}

void LabSchedule::step(uint64_t now) {
  timers_.take_due(now, [&](const TimerWheel::Entry& timer) {
    const uint32_t item = timer.item;
    if (item < nodes_.size()) {
      NodeState& s = node_state_[item];
      if (s.timer_ticks != timer.ticks) return;  // re-armed since: a stale entry
      s.timer_ticks = kNeverTicks;
      if (!nodes_[item].host) mark_due_transmitters(static_cast<int>(item), now);
      wake_node(static_cast<int>(item));
    } else {
      LinkState& s = link_state_[item - nodes_.size()];
      if (s.timer_ticks != timer.ticks) return;
      s.timer_ticks = kNeverTicks;
      wake_link(static_cast<int>(item - nodes_.size()));
    }
  });

  int round = 0;
  for (; !next_links_.empty() || !next_nodes_.empty() || (round == 0 && !starved_.empty());
       ++round) {
    if (round >= kMaxRoundsPerStep)
      throw std::runtime_error(fmt::format("the lab did not settle at tick {}", now));
    round_links_.swap(next_links_);
    round_links_.drain([&](size_t index) {
      const int l = static_cast<int>(index);
      const ScheduledLink& link = links_[l];
      ++link_polls_;
      // Its receiving end first, as LabLink::poll.
      const bool delivered = link.to_node >= 0 && link.link->deliver(now);
      const bool took = link.from_node >= 0 && link.link->take(now);
      if (took && link.to_node < 0)
        sent_arrival_ticks_ = std::min(sent_arrival_ticks_, link.link->first_taken_arrival_ticks());
      LinkState& s = link_state_[l];
      if (!s.touched) {
        s.touched = true;
        touched_links_.push_back(l);
      }
      if (delivered) {
        const LinkReceiver& receiver = receiver_of_link_[l];
        if (receiver.due_inputs) {
          receiver.due_inputs->mark(receiver.task->port);
        } else {
          receiver.task->input_due = true;
        }
        wake_node(link.to_node);
      }
      if (took) {
        // Room in the port: what its TX task waits for when it found none. One that sent all
        // it had has nothing for it (at fat-tree k = 16, most of the links' takes), unless
        // FWD holds packets in input FIFOs: their heads move at its polls, which the room
        // wakes (input-hol's crossbar turns a poll, so the polls are part of the model).
        if (ScheduledNode& from = nodes_[link.from_node]; from.host) {
          wake_node(link.from_node);
        } else if (from.fwd_may_hold ||
                   switch_timers_[link.from_node].tx[link.from_port]->waits_for_room()) {
          from.tx_wakes->mark(link.from_port);
          wake_node(link.from_node);
        }
      }
    });
    // Nodes woken by the links above are polled in this round, after every link, as the full
    // poll did; a node that wakes itself or a link does so for the next round.
    round_nodes_.swap(next_nodes_);
    for (int n : starved_) round_nodes_.set(static_cast<size_t>(n));
    round_nodes_.drain([&](size_t n) { poll_node(static_cast<int>(n), now); });
  }

  for (int n : touched_nodes_) {
    NodeState& s = node_state_[n];
    s.touched = false;
    arm(static_cast<uint32_t>(n), s.timer_ticks, node_timer(n, now));
  }
  touched_nodes_.clear();
  for (int l : touched_links_) {
    LinkState& s = link_state_[l];
    s.touched = false;
    arm(static_cast<uint32_t>(nodes_.size() + static_cast<size_t>(l)), s.timer_ticks,
        link_timer(links_[l]));
  }
  touched_links_.clear();
}

uint64_t LabSchedule::link_timer(const ScheduledLink& link) const {
  if (link.from_node < 0) return link.link->next_delivery_ticks();
  if (link.to_node < 0) return link.link->next_take_ticks();
  return link.link->next_event_ticks();
}

void LabSchedule::read_arrivals() {
  for (int l : receiving_ends_)
    arm(static_cast<uint32_t>(nodes_.size() + static_cast<size_t>(l)), link_state_[l].timer_ticks,
        links_[l].link->next_delivery_ticks());
}

void LabSchedule::arm(uint32_t item, uint64_t& timer, uint64_t ticks) {
  if (ticks == timer) return;  // already on the wheel
  timer = ticks;
  if (ticks != kNeverTicks) timers_.add(ticks, item);
}

uint64_t LabSchedule::next_event_ticks() {
  return timers_.next_live_ticks([&](const TimerWheel::Entry& timer) {
    const uint64_t armed = timer.item < nodes_.size()
                               ? node_state_[timer.item].timer_ticks
                               : link_state_[timer.item - nodes_.size()].timer_ticks;
    return armed == timer.ticks;
  });
}

}  // namespace fcswitch::lab

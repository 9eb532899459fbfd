#pragma once
// What the lab's virtual clock polls at a clock step (docs/architecture.md: "the virtual clock
// wakes only what has work or a timer, so its cost follows the traffic, not the size of the
// network").
//
// Items are the nodes (a switch or a host: all its tasks, polled together in their lcore
// order) and the links (one direction each). An item is polled in a round of a step when
//   - a node: a link delivered into one of its RX rings or took frames from one of its TX
//     rings (room for its TX task, where that task waits for room or FWD may hold packets;
//     TxTask::waits_for_room), one of its tasks was busy in the previous round, or its own
//     timer is due (gates, generators, pacers, watchdogs, a host's flows);
//   - a link: its node's TX ring holds frames after the node (a switch's TX task) moved
//     something in a poll, or its timer (a frame arrives, the wire frees with frames
//     waiting) is due.
// Rounds run until nothing is left to poll; active items are polled in index order, links
// before nodes, as a full poll does, so results are deterministic. Timers live in a wheel of
// one-tick slots (lab/timer_wheel.h); an item's timer is read again after every step in which it
// was polled (only a poll changes it: a node's by frames arriving is covered, since an arrival
// wakes it).
//
// Within a node, a task whose poll could only find nothing is not polled (docs/architecture.md: an
// idle port costs no poll):
//   - an RX task while the ring the link delivers into is empty;
//   - FWD (a host's sink) until an RX task of the node has passed it something, or it was busy
//     in its last poll (it takes a burst per input, and may have left some), or it holds
//     packets in input FIFOs (queueing = "input-hol": their heads move when TX makes room);
//     and FWD looks only at the inputs RX filled (SwitchState::fwd_inputs);
//   - a switch's TX task that went idle until an input of its port changes
//     (TxTask::idle_until_input), until one does (SwitchState::tx_wakes: FWD, RX and the
//     other TX tasks mark the ports whose inputs they change, an ingress occupancy only where
//     the port's generators would act on it: switch/feedback_wake_bands.h), its link takes
//     frames from it while it waits for room, its own timer is due or an event wakes
//     everything. A fat-tree k = 16 switch has 16 TX tasks, and a frame crossing it has work
//     for one or two. Only a TX task that moved something can have filled its port's ring:
//     only its link is woken.
// Such a poll changes nothing, except that a FWD poll turns FWD's round robin (below).
//
// FWD's and a host source's round robins turn once a poll of their own, so where they start
// depends on the work they were given, never on clock steps that had none for them (a sample,
// a deadlock check, another node's timer): the sample interval does not change a run's
// packets (LabGfcRing.SampleIntervalDoesNotChangeThePackets). Which polls they get is thus
// part of the model, and polling every task at every step (lab.clock = "virtual-poll-all")
// gives the same run only where their turn decides nothing: one flow a priority a host, FWD's
// inputs seldom in one poll together, no input-hol crossbar of input turns. There it checks
// every rule above (LabSchedule.SkipsOnlyPollsThatChangeNothing). A node that failed to
// allocate a frame (a shared pool ran dry) is polled in every round of every step until it
// stops failing: frames freed anywhere may let it go on.

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/task.h"
#include "lab/lab_link.h"
#include "lab/timer_wheel.h"
#include "lab/wake_bitmap.h"
#include "node/switch_node.h"
#include "switch/port_wake_set.h"
#include "traffic/traffic_host.h"

namespace fcswitch::lab {

// A clock step at which items still report work after this many rounds is a bug (a task
// that says it moved something and did not), not a busy network.
inline constexpr int kMaxRoundsPerStep = 1'000'000;

struct ScheduledTask {
  enum class Role : uint8_t {
    kReceiver,     // RX: has work only when `input` holds frames
    kConsumer,     // FWD, a host's sink: has work only when a receiver passed it frames
    kTransmitter,  // a switch's TX: has work only when its port is marked in the PortWakeSet
    kOther,        // a host's tasks but RX and sink: always polled with its node
  };
  // Laid out small (32 bytes): a poll of a node not in port order (below) walks its every
  // entry, most of them to skip.
  Task* task = nullptr;
  LinkFifo* input = nullptr;   // a receiver's: the ring its link delivers into
  const TxTask* tx = nullptr;  // a transmitter's task
  int port = -1;               // a switch's receiver's or transmitter's port
  Role role = Role::kOther;
  // A receiver's `input` may hold frames: its link delivered since it was last found empty,
  // or its last poll moved frames (and may have left some). The schedule keeps it, so that a
  // node poll looks only at the rings that may have frames (16 a switch at k = 16), not at
  // every ring's head and tail.
  bool input_due = true;
};
static_assert(sizeof(ScheduledTask) == 32);

struct ScheduledNode {
  std::vector<ScheduledTask> tasks;  // in poll order
  const SwitchNode* sw = nullptr;    // one of sw and host
  TrafficHost* host = nullptr;
  FwdTask* fwd = nullptr;  // the switch's, asked whether it holds packets
  // Its FWD may hold packets in input FIFOs or Pyrrha's queues (FwdTask::may_hold), set by
  // the schedule: a node poll asks it for held() only then (the FWD object is a cache miss).
  bool fwd_may_hold = false;
  // [port]: the TX ring a link takes from, and that link (null and -1: none, a cut link).
  std::vector<std::pair<LinkFifo*, int>> out;
  // A switch's ports with new input for TX and for FWD (SwitchState::tx_wakes, fwd_inputs),
  // enabled by the schedule; a switch node must have both.
  PortWakeSet* tx_wakes = nullptr;
  PortWakeSet* fwd_inputs = nullptr;
  // Its state's count of frames it could not allocate, read after each of its polls: set by
  // the schedule, so that the read does not go through the node object (a cache line a poll).
  const std::atomic<uint64_t>* alloc_failures = nullptr;
};

// A link, or one end of it where its two ends are in two schedules (fclab --threads: each
// thread's partition of the network has a schedule of its own): from_node -1, the receiving
// end only (LabLink::deliver); to_node -1, the sending end only (LabLink::take).
struct ScheduledLink {
  LabLink* link = nullptr;
  int from_node = -1;        // whose TX ring it takes from
  int from_port = -1;        // the port of that ring (its TX task's)
  int to_node = -1;          // whose RX ring it delivers into
  LinkFifo* into = nullptr;  // that ring (a receiver's input of to_node)
};

class LabSchedule {
 public:
  LabSchedule(std::vector<ScheduledNode> nodes, std::vector<ScheduledLink> links);

  // Polls what is due or woken at `now` until nothing moves; then reads the polled items'
  // timers again. Throws std::runtime_error when a step does not settle.
  void step(uint64_t now_ticks);
  // Every item is polled in the next step (the last one: counters that account time up to
  // their poll, such as paused time, are brought up to the end).
  void wake_all();
  // `node` is polled in the next round (something outside its inputs gave it work: a closed
  // loop's next flow).
  void wake(int node) { wake_node(node); }
  // The earliest timer of any item; kNeverTicks if none.
  uint64_t next_event_ticks();
  // Reads the next arrival of every link whose receiving end alone is here again: its sending
  // end, in another thread, put frames on its wire (that arrive after this thread's window).
  void read_arrivals();
  // The earliest arrival of the frames put on the wire of links whose sending end alone is
  // here, since the last call (kNeverTicks: none): their receiving ends' next event, which
  // their schedule reads only at read_arrivals().
  uint64_t take_sent_arrival_ticks() { return std::exchange(sent_arrival_ticks_, kNeverTicks); }
  // Polls done, of nodes and of links: the cost of the run.
  uint64_t node_polls() const { return node_polls_; }
  uint64_t link_polls() const { return link_polls_; }

 private:
  struct NodeState {
    uint64_t timer_ticks = kNeverTicks;
    uint64_t alloc_failures = 0;
    bool touched = false;      // polled in this step
    bool starved = false;      // in starved_
    bool consumer_due = true;  // its consumer may have frames: a receiver or it was busy
  };
  // A switch's TX tasks by port: each one's next action as read at the end of the last step
  // that polled it (only its poll changes it), and whether this step polled it. The node's
  // timer is the earliest; when it is due, the ports whose timer is due are marked.
  struct SwitchTimers {
    std::vector<const TxTask*> tx;
    std::vector<uint64_t> ticks;
    std::vector<uint8_t> polled;
  };
  struct LinkState {
    uint64_t timer_ticks = kNeverTicks;
    bool touched = false;
  };

  // A switch whose tasks are its RX tasks in port order, its FWD, then its TX tasks in port
  // order (every layout the lab builds): its poll walks the ports marked due a word at a time
  // instead of every task entry (33 at k = 16, most of them idle), in the same order.
  struct PortOrder {
    std::vector<ScheduledTask*> receivers, transmitters;  // [port]; empty: not in port order
    ScheduledTask* consumer = nullptr;
    PortWakeSet due_inputs;  // the receivers whose input may hold frames (their input_due)
  };
  struct LinkReceiver {
    ScheduledTask* task;      // the receiver whose input the link fills
    PortWakeSet* due_inputs;  // its node's, in port order; null: its input_due
  };

  void take_port_order(size_t node);
  void wake_node(int node);
  void wake_link(int link);
  void poll_node(int node, uint64_t now);
  bool poll_tasks(int node, uint64_t now);    // every task entry in turn
  bool poll_by_port(int node, uint64_t now);  // a node in port order
  bool poll_receiver(NodeState& s, ScheduledTask& t, uint64_t now);
  bool poll_consumer(const ScheduledNode& n, NodeState& s, ScheduledTask& t, uint64_t now);
  bool poll_transmitter(int node, ScheduledTask& t, uint64_t now);
  uint64_t node_timer(int node, uint64_t now);
  void mark_due_transmitters(int node, uint64_t now);
  uint64_t alloc_failures(int node) const;
  void arm(uint32_t item, uint64_t& timer, uint64_t ticks);
  uint64_t link_timer(const ScheduledLink& link) const;

  std::vector<ScheduledNode> nodes_;
  std::vector<ScheduledLink> links_;
  std::vector<LinkReceiver> receiver_of_link_;
  std::vector<NodeState> node_state_;
  std::vector<SwitchTimers> switch_timers_;  // [node]: empty for a host
  std::vector<PortOrder> port_order_;        // [node]
  std::vector<LinkState> link_state_;
  WakeBitmap next_nodes_, next_links_;  // woken for the coming round
  WakeBitmap round_nodes_, round_links_;
  std::vector<int> touched_nodes_, touched_links_;
  std::vector<int> starved_;
  std::vector<int> receiving_ends_;  // links whose sending end is in another schedule
  TimerWheel timers_;                // items: the nodes, then the links
  uint64_t node_polls_ = 0;
  uint64_t link_polls_ = 0;
  uint64_t sent_arrival_ticks_ = kNeverTicks;
};

}  // namespace fcswitch::lab

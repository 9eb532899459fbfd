#include "switch/fwd/input_crossbar.h"

#include <rte_ring.h>

#include <algorithm>

namespace fcswitch {

InputCrossbar::InputCrossbar(const InputCrossbarSettings& settings, SwitchState& state,
                             EgressStages& stages)
    : state_(state),
      stages_(stages),
      fifos_(state.ports),
      input_turns_(settings.input_turns),
      room_(stages.size()),
      room_pass_(stages.size(), 0),
      grant_(stages.size(), -1),
      grant_rank_(stages.size(), 0),
      last_granted_(stages.size(), state.ports - 1) {
  requested_.reserve(stages.size());
}

uint64_t InputCrossbar::egress_dequeued() const {
  uint64_t sum = 0;
  for (int port = 0; port < state_.ports; ++port) sum += state_.egress_dequeued[port].read();
  return sum;
}

bool InputCrossbar::serve(int first_input, int lane) {
  if (fifos_.packets() == 0) return false;
  // Read before the pass: room a TX task makes during it differs at the next poll.
  const uint64_t dequeued = egress_dequeued();
  if (stuck_ && fifos_.pushes() == stuck_pushes_ && dequeued == stuck_dequeued_) return false;
  ++pass_;
  lane_ = lane;
  const int only_slot = fifos_.only_backlogged_slot();
  const bool moved_any = only_slot >= 0 ? drain_only_input(only_slot)
                         : input_turns_ ? match_input_turns(first_input)
                                        : match_egress_round_robin();
  stuck_ = !moved_any;
  stuck_pushes_ = fifos_.pushes();
  stuck_dequeued_ = dequeued;
  return moved_any;
}

[[gnu::always_inline]] inline bool InputCrossbar::take_room(int stage_index) {
  if (room_pass_[stage_index] != pass_) {
    room_pass_[stage_index] = pass_;
    const unsigned free = rte_ring_free_count(stages_.ring(state_, stage_index, lane_));
    room_[stage_index] = static_cast<uint16_t>(std::min<unsigned>(free, kBurstSize));
  }
  if (room_[stage_index] == 0) return false;
  --room_[stage_index];
  return true;
}

[[gnu::always_inline]] inline void InputCrossbar::move_head(int slot, int stage_index) {
  stages_.put(stage_index, fifos_.front(slot).packet);
  fifos_.pop(slot);
}

[[gnu::always_inline]] inline int InputCrossbar::head_stage(int slot) const {
  const InputQueues::Head head = fifos_.front(slot);
  return EgressStages::index(head.egress_port, head.egress_queue);
}

bool InputCrossbar::drain_only_input(int slot) {
  // A pass of either crossbar has this head alone to move: one head a pass, until its egress
  // ring has no room (no FIFO gains a packet meanwhile). The egress round robin's grant goes
  // to this input each time. So the heads bound for one egress move as a run, as many as its
  // room takes, in the order those passes would move them.
  const int port = slot / kNumPriorities;
  bool moved = false;
  while (!fifos_.empty(slot)) {
    const int stage_index = head_stage(slot);
    if (!take_room(stage_index)) break;
    EgressStages::Stage& stage = stages_.open(stage_index);
    // take_room took one place of the room: the run may take the rest.
    const unsigned n = fifos_.pop_run(slot, room_[stage_index] + 1u, stage.pkts + stage.count);
    stage.count = static_cast<uint16_t>(stage.count + n);
    room_[stage_index] = static_cast<uint16_t>(room_[stage_index] + 1u - n);
    if (!input_turns_) last_granted_[stage_index] = port;
    moved = true;
  }
  return moved;
}

bool InputCrossbar::match_input_turns(int first_input) {
  bool moved_any = false;
  for (bool moved = true; moved;) {
    moved = false;
    for (int i = 0; i < state_.ports; ++i) {
      const int port = (first_input + i) % state_.ports;
      for_each_set_descending(fifos_.backlogged(port), [&](int prio) {
        const int slot = InputQueues::slot(port, prio);
        const int stage_index = head_stage(slot);
        if (!take_room(stage_index)) return;  // head-of-line: this FIFO waits
        move_head(slot, stage_index);
        moved = true;
      });
    }
    moved_any |= moved;
  }
  return moved_any;
}

bool InputCrossbar::match_egress_round_robin() {
  bool moved_any = false;
  // A crossbar, matched pass by pass: each head requests its egress queue; each egress queue
  // with room grants one request, to the input next after the one it granted last (round
  // robin), and the granted heads move. An input whose head is not granted waits, and so
  // does everything behind it. Granting at the egress, not taking turns at the inputs, gives
  // every input that requests an egress an equal share of it however many of its packets go
  // elsewhere (input turns would shortchange an input whose packets are mixed).
  for (;;) {
    for (int i = 0; i < state_.ports; ++i) {
      for_each_set(fifos_.backlogged(i), [&](int prio) {
        const int slot = InputQueues::slot(i, prio);
        const int stage_index = head_stage(slot);
        // Rank by distance after the last granted input; a higher priority first within one.
        const int rank = ((i - last_granted_[stage_index] - 1 + 2 * state_.ports) % state_.ports) *
                             kNumPriorities +
                         (kNumPriorities - 1 - prio);
        if (grant_[stage_index] < 0) {
          requested_.push_back(stage_index);
        } else if (rank >= grant_rank_[stage_index]) {
          return;
        }
        grant_[stage_index] = slot;
        grant_rank_[stage_index] = rank;
      });
    }
    bool moved = false;
    for (int stage_index : requested_) {
      const int slot = grant_[stage_index];
      grant_[stage_index] = -1;
      if (!take_room(stage_index)) continue;
      move_head(slot, stage_index);
      last_granted_[stage_index] = slot / kNumPriorities;
      moved = true;
    }
    requested_.clear();
    if (!moved) break;
    moved_any = true;
  }
  return moved_any;
}

}  // namespace fcswitch

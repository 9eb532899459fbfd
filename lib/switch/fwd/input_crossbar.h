#pragma once
// The crossbar of an input-queued switch ([switch] queueing = "input-hol"): FWD admits a packet
// into its input's FIFO (fwd/input_queues.h), and the crossbar moves the heads of the FIFOs to
// their egress stages (fwd/egress_stages.h), one packet per FIFO in turn, while the egress ring
// has room: DPDK test-pipeline's worker, with head-of-line blocking per (input, priority) rather
// than for the whole switch (GFC §6.1.1's testbed switch).
//
// Two matchings: inputs take turns ([switch] crossbar = "input-turns", the testbed's), or each
// egress grants one request a pass, round robin over the inputs (a fair crossbar).

#include <cstdint>
#include <vector>

#include "switch/fwd/egress_stages.h"
#include "switch/fwd/input_queues.h"
#include "switch/switch_state.h"

namespace fcswitch {

struct InputCrossbarSettings {
  bool input_turns = false;  // [switch] crossbar = "input-turns"; else egress round robin
};

class InputCrossbar {
 public:
  InputCrossbar(const InputCrossbarSettings& settings, SwitchState& state, EgressStages& stages);

  InputQueues& fifos() { return fifos_; }
  const InputQueues& fifos() const { return fifos_; }

  // One matching: heads move to their egress stages while the rings have room (staged, not yet
  // flushed). `first_input`: the input whose turn comes first; `lane`: the input whose ring
  // lane the stages fill (EgressStages::flush). True when it moved any.
  bool serve(int first_input, int lane);

 private:
  // The matching when one input FIFO alone holds packets: its heads move while their egress
  // rings have room, as pass after pass of either crossbar would move them.
  bool drain_only_input(int slot);
  bool match_egress_round_robin();
  bool match_input_turns(int first_input);
  int head_stage(int slot) const;  // the stage the head of that input FIFO goes to
  void move_head(int slot, int stage_index);
  bool take_room(int stage_index);   // one packet's room in that egress ring, in this pass
  uint64_t egress_dequeued() const;  // Σ SwitchState::egress_dequeued over the ports

  SwitchState& state_;
  EgressStages& stages_;
  InputQueues fifos_;
  bool input_turns_;
  int lane_ = 0;
  // Per stage: what its egress ring can still take in this pass, valid when room_pass_ is
  // this pass's (FWD is the ring's only producer: its free space only grows meanwhile).
  std::vector<uint16_t> room_;
  std::vector<uint64_t> room_pass_;
  uint64_t pass_ = 0;
  // The last pass moved nothing (every head's egress ring was full): the packets pushed and
  // taken from egress rings then. Until either changes, a pass would move nothing again, and is
  // not made.
  bool stuck_ = false;
  uint64_t stuck_pushes_ = 0;
  uint64_t stuck_dequeued_ = 0;
  // The egress round robin's matching, per stage: the input FIFO (slot) granted in this pass
  // and its rank, or -1; the input port it granted last; the stages requested in this pass.
  std::vector<int> grant_;
  std::vector<int> grant_rank_;
  std::vector<int> last_granted_;
  std::vector<int> requested_;
};

}  // namespace fcswitch

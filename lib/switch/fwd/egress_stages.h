#pragma once
// FWD's staging of an input burst: per (egress port, queue), and per PABO bounce sub-queue, the
// packets bound for that ring, put on it together once the burst has been taken (one enqueue a
// ring a burst, not a packet). FWD is each ring's only producer, so the room a stage read stays
// a lower bound until its flush. The input crossbar (fwd/input_crossbar.h) stages the heads it
// moves here too.

#include <rte_mbuf.h>

#include <cstdint>
#include <vector>

#include "core/traffic_class.h"
#include "switch/burst.h"
#include "switch/switch_state.h"

namespace fcswitch {

class EgressStages {
 public:
  struct Stage {
    uint16_t count = 0;
    // What the egress ring had room for when read in this burst (up to a burst). FWD is the
    // ring's only producer, so its free space only grows meanwhile: a lower bound.
    uint16_t room = 0;
    // FWD's view of the queue's bytes (FwdTask::queued_bytes_seen), valid in the burst
    // `seen_burst` (a normal sub-queue's stage keeps it for the whole egress queue): on the
    // line a packet's staging writes.
    uint64_t seen_bytes = 0;
    uint64_t seen_burst = 0;
    rte_mbuf* pkts[kBurstSize];
  };

  // `bounce_subqueues`: PABO runs on some priority, so every (port, queue) has a bounce stage.
  EgressStages(int ports, bool bounce_subqueues)
      : stages_(static_cast<size_t>(ports) * kNumEgressQueues * (bounce_subqueues ? 2 : 1)),
        bounce_base_(ports * kNumEgressQueues) {
    touched_.reserve(stages_.size());
  }

  static int index(int port, int queue) { return port * kNumEgressQueues + queue; }
  int bounce_index(int port, int queue) const { return bounce_base_ + index(port, queue); }
  int size() const { return static_cast<int>(stages_.size()); }
  Stage& operator[](int index) { return stages_[index]; }
  const Stage& operator[](int index) const { return stages_[index]; }

  // The stage, noted as holding packets when it is about to take its first.
  Stage& open(int index) {
    Stage& stage = stages_[index];
    if (stage.count == 0) touched_.push_back(index);
    return stage;
  }
  void put(int index, rte_mbuf* m) {
    Stage& stage = open(index);
    stage.pkts[stage.count++] = m;
  }
  // The ring stage `index` fills: an egress ring, or a bounce sub-queue's.
  rte_ring* ring(SwitchState& state, int index, int input) const;

  // Every stage's packets onto its ring (their room was checked as they were staged), its TX
  // task woken. `input`: the input port whose packets the stages hold (an input lane's ring).
  void flush(SwitchState& state, int input);

 private:
  int port_of(int index) const {
    return (index >= bounce_base_ ? index - bounce_base_ : index) / kNumEgressQueues;
  }

  // [port * kNumEgressQueues + queue], then the same for the PABO bounce sub-queues (from
  // bounce_base_).
  std::vector<Stage> stages_;
  int bounce_base_;
  std::vector<int> touched_;  // which stages hold packets
};

}  // namespace fcswitch

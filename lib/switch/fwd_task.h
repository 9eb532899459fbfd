#pragma once
// FWD: for every data frame from the RX rings — parse, classify to a priority, learn the
// source, look up the destination (or flood), admit to the shared buffer, and append to the
// egress queue (port, priority). Charges the ingress occupancy the packet will release when
// it leaves the switch.

#include <memory>
#include <vector>

#include "core/owned_counter.h"
#include "core/task.h"
#include "core/traffic_class.h"
#include "switch/drop_counters.h"
#include "switch/l2_fib.h"
#include "switch/priority_classifier.h"
#include "switch/shared_buffer_policy.h"
#include "switch/switch_state.h"
#include "switch/tagger_stage.h"

struct rte_mbuf;

namespace fcswitch {

struct FwdSettings {
  PriorityMaps priority_maps;
  PriorityMask lossless_priorities = 0;
  SharedBufferConfig buffer;
  bool mac_learning = true;
  std::shared_ptr<TaggerStage> tagger;  // null: no Tagger; classify by [classify] alone
  // ECMP groups the FIB's group entries point at (L2Fib::kGroupBase + index), and this
  // switch's hash seed.
  std::vector<std::vector<uint16_t>> ecmp_groups;
  uint32_t ecmp_seed = 0;
  bool decrement_ttl = false;  // IP packets lose one TTL per switch; at 0 ttl_expired
};

class FwdTask : public Task {
 public:
  FwdTask(const FwdSettings& settings, SwitchState& state, L2Fib& fib);
  ~FwdTask() override;
  // The groups the FIB's group entries point at, replaced with the FIB (SwitchNode::replace_fib).
  void set_ecmp_groups(std::vector<std::vector<uint16_t>> groups) {
    ecmp_groups_ = std::move(groups);
  }

  // Per (ingress port, priority): admitted packets and bytes (each flooded copy counts).
  uint64_t admitted_packets(int port, int priority) const {
    return admitted_packets_[SwitchState::occupancy_slot(port, priority)].read();
  }
  uint64_t admitted_bytes(int port, int priority) const {
    return admitted_bytes_[SwitchState::occupancy_slot(port, priority)].read();
  }
  // The highest ingress occupancy of lossless (port, priority) so far: FWD is its only
  // charger, so each peak is seen right after a charge.
  uint64_t max_ingress_occupancy(int port, int priority) const {
    return max_occupancy_[SwitchState::occupancy_slot(port, priority)].read();
  }
  uint64_t processed() const { return processed_.read(); }
  // Credit frames RX passed on for the ABR resynchronisation, consumed here.
  uint64_t credit_frames(int port) const { return credit_frames_[port].read(); }
  uint64_t flood_copies() const { return flood_copies_.read(); }
  uint64_t fib_full() const { return fib_full_.read(); }
  const DropCounters& drops() const { return drops_; }
  const TaggerStage* tagger() const { return tagger_.get(); }
  // The lab's virtual clock polls a switch only when it has work (LabSchedule); before each
  // poll it puts the input rotation where `poll_index` polls would have left it, so that the
  // order FWD serves its inputs in does not depend on how many idle polls were skipped.
  void align_rotation(uint64_t poll_index) {
    next_input_ = static_cast<int>(poll_index % static_cast<uint64_t>(state_.ports));
  }

 protected:
  bool poll(uint64_t now_tsc) override;

 private:
  struct Stage;  // packets bound for one (egress port, queue), flushed after each input burst

  void forward(rte_mbuf* m, int in_port);
  void admit(rte_mbuf* m, int in_port, int out_port, uint8_t priority,
             const wire::FrameHeader& header);
  void drop(rte_mbuf* m, int in_port, DropReason reason);
  void resynchronise(rte_mbuf* m, int in_port);
  void flush();

  SwitchState& state_;
  L2Fib& fib_;
  PriorityClassifier classifier_;
  SharedBufferPolicy buffer_;
  PriorityMask lossless_;
  bool mac_learning_;
  std::shared_ptr<TaggerStage> tagger_;
  std::vector<std::vector<uint16_t>> ecmp_groups_;
  uint32_t ecmp_seed_;
  bool decrement_ttl_;
  int next_input_ = 0;
  int input_ = 0;  // the input port whose burst the stages hold

  std::vector<Stage> stages_;        // [port * kNumEgressQueues + queue]
  std::vector<int> touched_stages_;  // which stages hold packets
  std::vector<rte_mbuf*> to_free_;   // dropped in this burst, freed together

  std::unique_ptr<OwnedCounter[]> admitted_packets_;
  std::unique_ptr<OwnedCounter[]> admitted_bytes_;
  std::unique_ptr<OwnedGauge[]> max_occupancy_;
  std::unique_ptr<OwnedCounter[]> credit_frames_;
  OwnedCounter processed_;
  OwnedCounter flood_copies_;
  OwnedCounter fib_full_;
  DropCounters drops_;
};

}  // namespace fcswitch

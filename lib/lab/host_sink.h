#pragma once
// The receiving side of a lab host: takes what the host port's RX task hands on (as FWD
// would in a switch), accounts each flow's frames — bytes, sequence gaps (loss), reordering,
// first and last arrival — and counts the 64-byte blocks received per priority, so the host
// port's feedback generators see the ABR a CBFC receiver needs (credit frames from the
// switch resynchronise it, in order with the data).

#include <memory>
#include <vector>

#include "core/owned_counter.h"
#include "core/task.h"
#include "switch/priority_classifier.h"
#include "switch/switch_state.h"
#include "wire/mac_address.h"

namespace fcswitch::lab {

struct FlowReceived {
  OwnedCounter packets;
  OwnedCounter bytes;
  OwnedCounter missing;    // sequence numbers skipped: frames lost on the way
  OwnedCounter reordered;  // frames older than one already received
  OwnedGauge first_ticks;  // arrival of the first frame (+1, so 0 means none yet)
  OwnedGauge last_ticks;
};

class HostSink : public Task {
 public:
  // `flows`: the lab's per-flow records, indexed by flow id; the sink writes those of the
  // flows sent to it.
  HostSink(std::string name, wire::MacAddress mac, SwitchState& state, const PriorityMaps& maps,
           std::vector<FlowReceived>& flows);

  // Not a lab flow's frame for this host (another host's, flooded to us): dropped.
  uint64_t foreign_frames() const { return foreign_.read(); }
  uint64_t credit_frames() const { return credit_frames_.read(); }

 protected:
  bool poll(uint64_t now_ticks) override;

 private:
  void receive(const uint8_t* data, uint32_t length, uint64_t now);

  wire::MacAddress mac_;  // this host's: a flow's frame for another one is foreign
  SwitchState& state_;
  PriorityClassifier classifier_;
  std::vector<FlowReceived>& flows_;
  std::vector<uint64_t> next_sequence_;  // per flow: one past the highest received
  OwnedCounter foreign_;
  OwnedCounter credit_frames_;
};

}  // namespace fcswitch::lab

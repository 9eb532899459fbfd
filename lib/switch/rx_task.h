#pragma once
// RX of one port: receives a burst, consumes control frames (flow-control feedback from the
// downstream neighbour, DESIGN.md §1) and hands data frames to FWD through the port's ring.

#include <cstdint>

#include "core/owned_counter.h"
#include "switch/drop_counters.h"
#include "switch/switch_state.h"
#include "switch/task.h"

namespace fcswitch {

class RxTask : public Task {
 public:
  RxTask(std::string name, int port, uint16_t port_id, uint16_t control_ether_type,
         SwitchState& state);

  uint64_t packets() const { return packets_.read(); }
  uint64_t bytes() const { return bytes_.read(); }
  uint64_t control_frames() const { return control_frames_.read(); }
  const DropCounters& drops() const { return drops_; }

 protected:
  bool poll(uint64_t now_tsc) override;

 private:
  int port_;
  uint16_t port_id_;
  uint16_t control_ether_type_be_;  // network byte order, compared in place
  SwitchState& state_;
  OwnedCounter packets_;
  OwnedCounter bytes_;
  OwnedCounter control_frames_;
  DropCounters drops_;
};

}  // namespace fcswitch

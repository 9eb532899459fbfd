#pragma once
// RX of one port: receives a burst, consumes flow-control frames (feedback from the
// downstream neighbour, docs/architecture.md) and hands data frames to FWD through the port's ring,
// or, when RX and FWD share an lcore, straight into FWD's BurstHandoff for the port.
//
// A PFC frame becomes one message per enabled priority for the egress gates of this port,
// which TX(p) owns (through the port's control ring). A credit frame does too (its FCCL), and
// is then passed to FWD in order with the data, so that FWD sets ABR to the FCTBS it carries
// exactly where it falls among the packets (IBA's resynchronisation). Pyrrha's messages go to
// FWD the same way where the switch runs Pyrrha (RxSettings::pass_pyrrha).

#include <array>
#include <cstdint>

#include "core/owned_counter.h"
#include "core/task.h"
#include "fc/control_message.h"
#include "switch/burst.h"
#include "switch/burst_handoff.h"
#include "switch/drop_counters.h"
#include "switch/port_io.h"
#include "switch/switch_state.h"
#include "wire/control_decode_status.h"
#include "wire/control_frame_kind.h"

struct rte_mbuf;

namespace fcswitch {

struct RxSettings {
  uint16_t control_ether_type = 0x8808;  // the port's MAC Control EtherType
  uint16_t stage_opcode = 0x0101;        // buffer-based GFC stage frames, if not PFC's
  bool trust = true;                     // act on flow-control frames
  // Pyrrha runs here: its frames go on to the port's consumer (FWD's congestion-root table, a
  // host's paused roots) in order with the data. Elsewhere RX checks, counts and frees them.
  bool pass_pyrrha = false;
};

class RxTask : public Task {
 public:
  RxTask(std::string name, int port, PortIo& io, const RxSettings& settings, SwitchState& state);

  // Before the lcores start: hand FWD the bursts in `handoff` (FWD on this lcore) instead of
  // through the fwd ring.
  void hand_to(BurstHandoff* handoff) { handoff_ = handoff; }
  bool hands_over() const { return handoff_ != nullptr; }

  uint64_t packets() const { return packets_.read(); }
  uint64_t packets_moved() const override { return packets(); }
  uint64_t bytes() const { return bytes_.read(); }
  uint64_t data_packets() const { return data_packets_.read(); }
  // Flow-control frames consumed here (credit frames are consumed by FWD: see there).
  uint64_t control_frames() const { return control_frames_.read(); }
  uint64_t decode_errors(wire::ControlDecodeStatus status) const {
    return decode_errors_[static_cast<int>(status)].read();
  }
  const DropCounters& drops() const { return drops_; }

 protected:
  bool poll(uint64_t now_tsc) override;

 private:
  // Returns whether the frame goes on to FWD (a trusted, valid credit frame).
  bool take_control(rte_mbuf* m, wire::ControlFrameKind kind, uint64_t now);
  bool post(const fc::ControlMessage* messages, unsigned count);

  int port_;
  PortIo& io_;
  RxSettings settings_;
  SwitchState& state_;
  BurstHandoff* handoff_ = nullptr;
  rte_mbuf* to_free_[kBurstSize];
  unsigned to_free_count_ = 0;
  OwnedCounter packets_;
  OwnedCounter bytes_;
  OwnedCounter data_packets_;
  OwnedCounter control_frames_;
  std::array<OwnedCounter, static_cast<int>(wire::ControlDecodeStatus::kCount)> decode_errors_;
  DropCounters drops_;
};

}  // namespace fcswitch

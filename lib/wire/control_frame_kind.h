#pragma once
// Which flow-control format a received frame is, from its EtherType and first bytes: what
// RX consumes instead of forwarding (DESIGN.md §1).

#include <cstddef>
#include <cstdint>

namespace fcswitch::wire {

enum class ControlFrameKind : uint8_t {
  kData,        // not ours: forward it
  kMacControl,  // the port's MAC Control EtherType (0x8808 or the testbed's choice)
  kCredit,      // 0x88B5 with the credit subtype
};

// `mac_control_ether_type` is the port's control EtherType. A frame under 0x88B5 with
// another subtype is data (PABO's shim travels as data).
ControlFrameKind control_frame_kind(const uint8_t* data, size_t length,
                                    uint16_t mac_control_ether_type);

}  // namespace fcswitch::wire

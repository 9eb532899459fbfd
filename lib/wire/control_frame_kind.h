#pragma once
// Which flow-control format a received frame is, from its EtherType and first bytes: what
// RX consumes instead of forwarding (docs/architecture.md).

#include <cstddef>
#include <cstdint>

#include "wire/big_endian.h"
#include "wire/ether_type.h"
#include "wire/local_experimental.h"
#include "wire/pfc_frame.h"

namespace fcswitch::wire {

enum class ControlFrameKind : uint8_t {
  kData,        // not ours: forward it
  kMacControl,  // the port's MAC Control EtherType (0x8808 or the testbed's choice)
  kCredit,      // 0x88B5 with the credit subtype
  kPyrrha,      // 0x88B5 with the Pyrrha subtype: PAUSE/RESUME/MERGE/DEALLOC
};

// `mac_control_ether_type` is the port's control EtherType. A frame under 0x88B5 with
// another subtype is data (PABO's shim travels as data). Inline: RX asks it of every frame.
// Pyrrha's messages are consumed like the credit frames, so that no port forwards one as data
// and no data frame is taken for one (their subtypes differ from PABO's: parse_frame_header).
inline ControlFrameKind control_frame_kind(const uint8_t* data, size_t length,
                                           uint16_t mac_control_ether_type) {
  if (length < 15) return ControlFrameKind::kData;  // too short for an EtherType and one byte
  const uint16_t type = load_be16(data + 12);
  // Moved onto 0x88B5, PFC is told from our subtypes by its opcode's first byte (0x01).
  if (type == mac_control_ether_type &&
      (type != kEtherTypeLocalExperimental1 || data[14] == (kPfcOpcode >> 8)))
    return ControlFrameKind::kMacControl;
  if (type == kEtherTypeLocalExperimental1) {
    if (data[14] == static_cast<uint8_t>(LocalSubtype::kCredit)) return ControlFrameKind::kCredit;
    if (data[14] == static_cast<uint8_t>(LocalSubtype::kPyrrha)) return ControlFrameKind::kPyrrha;
  }
  return ControlFrameKind::kData;
}

}  // namespace fcswitch::wire

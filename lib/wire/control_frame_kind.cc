#include "wire/control_frame_kind.h"

#include "wire/big_endian.h"
#include "wire/ether_type.h"
#include "wire/local_experimental.h"
#include "wire/pfc_frame.h"

namespace fcswitch::wire {

ControlFrameKind control_frame_kind(const uint8_t* data, size_t length,
                                    uint16_t mac_control_ether_type) {
  if (length < 15) return ControlFrameKind::kData;  // too short for an EtherType and one byte
  const uint16_t type = load_be16(data + 12);
  // Moved onto 0x88B5, PFC is told from our subtypes by its opcode's first byte (0x01).
  if (type == mac_control_ether_type &&
      (type != kEtherTypeLocalExperimental1 || data[14] == (kPfcOpcode >> 8)))
    return ControlFrameKind::kMacControl;
  if (type == kEtherTypeLocalExperimental1 &&
      data[14] == static_cast<uint8_t>(LocalSubtype::kCredit))
    return ControlFrameKind::kCredit;
  return ControlFrameKind::kData;
}

}  // namespace fcswitch::wire

#pragma once
// Our frames under the IEEE 802 local experimental EtherType 0x88B5 start with a subtype
// byte that says which format follows. One table, so that two formats never share a value.
// None is 0x01: a testbed may move PFC to 0x88B5 (PortConfig::control_ether_type), and a
// PFC frame's first byte after the EtherType is 0x01 (opcode 0x0101).

#include <cstdint>

namespace fcswitch::wire {

enum class LocalSubtype : uint8_t {
  kCredit = 0xCB,  // CBFC / time-based GFC credit update (wire/credit_frame.h)
  kPabo = 0xB0,    // PABO's bounce shim on a data frame (wire/pabo_shim.h)
  kPyrrha = 0xB1,  // Pyrrha's PAUSE/RESUME/MERGE/DEALLOC (wire/pyrrha_frame.h)
};

}  // namespace fcswitch::wire

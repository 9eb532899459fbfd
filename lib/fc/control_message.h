#pragma once
// One priority's share of a flow-control frame, as RX(p) hands it to the egress gates of
// port p (through a ring to TX(p), which owns them). A frame for several priorities becomes
// several messages. RX decodes the wire format; gates see only this.

#include <cstdint>

namespace fcswitch::fc {

enum class ControlKind : uint8_t {
  kClassTime,    // 802.1Qbb time field: PFC pause quanta, or a buffer-based GFC stage
  kCreditLimit,  // FCCL from a credit frame: CBFC and time-based GFC
};

struct ControlMessage {
  uint64_t rx_ticks = 0;  // when RX took the frame off the port
  ControlKind kind = ControlKind::kClassTime;
  uint8_t priority = 0;
  uint16_t opcode = 0;  // kClassTime: the MAC Control opcode it came with (PFC or GFC stage)
  uint32_t value = 0;   // quanta, stage or FCCL
};
static_assert(sizeof(ControlMessage) == 16, "ring element size");

}  // namespace fcswitch::fc

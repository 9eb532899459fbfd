#pragma once
// IEEE 802.1Qbb priority-based flow control frame (802.3 Annex 31D), byte for byte:
//
//   0  destination  01:80:C2:00:00:01 (MAC Control, never forwarded by a bridge)
//   6  source       the sending port's MAC
//  12  EtherType    0x8808 (MAC Control; a testbed may move it, see PortConfig)
//  14  opcode       0x0101 (PFC; 0x0001 is 802.3x PAUSE)
//  16  class-enable vector: one reserved octet (0), then e[7..0], bit i = priority i
//  18  time[0..7]   eight big-endian 16-bit pause times in quanta of 512 bit times
//  34  zero padding to the 60-byte minimum frame (64 with the FCS the NIC appends)
//
// Buffer-based GFC (GFC §5.1) sends the same frame with time[i] carrying a stage number.

#include <array>
#include <cstddef>
#include <cstdint>

#include "wire/control_decode_status.h"
#include "wire/mac_address.h"

namespace fcswitch::wire {

inline constexpr uint16_t kPfcOpcode = 0x0101;
inline constexpr uint16_t kPauseOpcode = 0x0001;  // 802.3x: whole-link PAUSE, not acted on
inline constexpr uint64_t kPfcDestination = 0x0180'C200'0001ull;
inline constexpr size_t kPfcFrameBytes = 60;       // without FCS
inline constexpr size_t kPfcPayloadEndBytes = 34;  // header, opcode, vector, eight times
inline constexpr uint32_t kPfcQuantumBits = 512;

struct PfcFrame {
  MacAddress source;
  uint8_t class_enable = 0;        // bit i: time[i] applies to priority i
  std::array<uint16_t, 8> time{};  // quanta (PFC) or stage (buffer-based GFC)
  uint16_t opcode = kPfcOpcode;    // or the link's GFC stage opcode
  friend bool operator==(const PfcFrame&, const PfcFrame&) = default;
};

// Writes kPfcFrameBytes bytes to `out`.
void encode_pfc(const PfcFrame& frame, uint16_t ether_type, uint8_t* out);

struct PfcDecodeResult {
  ControlDecodeStatus status = ControlDecodeStatus::kTooShort;
  PfcFrame frame;
};

// Decodes a frame already known to carry `ether_type` at offset 12. Rejects a frame that ends
// before its eight times (byte 34; the padding after them is not needed), one not addressed to
// 01:80:C2:00:00:01, and any opcode but 0x0101 and `stage_opcode` (the link's GFC stage frames, if
// they have their own; 802.3x PAUSE is reported as kPauseOpcode so it can be counted apart). The
// reserved octet of the vector is ignored on receipt, as 802.1Qbb says.
PfcDecodeResult decode_pfc(const uint8_t* data, size_t length, uint16_t stage_opcode = kPfcOpcode);

}  // namespace fcswitch::wire

#pragma once
// Why a flow-control frame was not accepted. Each value is counted on the receiving port.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "wire/mac_address.h"

namespace fcswitch::wire {

enum class ControlDecodeStatus : uint8_t {
  kOk,
  kTooShort,        // shorter than the Ethernet minimum or than its own fields
  kBadDestination,  // not the link-constrained group address the format requires
  kPauseOpcode,     // 802.3x PAUSE (opcode 0x0001): we do only per-priority flow control
  kUnknownOpcode,   // any other MAC Control opcode, or a Pyrrha opcode we do not know
  kBadVersion,      // credit or Pyrrha frame of a version we do not speak
  kBadField,        // a field outside its range (Pyrrha: priority above 7, PAUSE/MERGE hops 0)
  kCount,
};

inline constexpr std::array<std::string_view, static_cast<int>(ControlDecodeStatus::kCount)>
    kControlDecodeStatusNames = {"ok",           "too_short",      "bad_destination",
                                 "pause_opcode", "unknown_opcode", "bad_version",
                                 "bad_field"};

// The checks every flow-control format starts with: at least `min_bytes` long and sent to
// the link-constrained group address 01:80:C2:00:00:01. kOk when both hold.
ControlDecodeStatus check_control_header(const uint8_t* data, size_t length, size_t min_bytes);

// The header they are sent with: `frame_bytes` zeroed at `out`, then that address, `source`
// and `ether_type`; the format's own fields follow from byte 14.
void write_control_header(uint8_t* out, size_t frame_bytes, MacAddress source, uint16_t ether_type);

}  // namespace fcswitch::wire

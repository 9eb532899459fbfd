#pragma once
// Units that recur across the switch. Values carry their unit in their name
// (`rate_bps`, `pause_ticks`, `buffer_bytes`); this header holds the constants and the
// conversions between them.

#include <cstdint>

namespace fcswitch {

// Ethernet per-frame overhead on the wire beyond the bytes DPDK hands us (which exclude the
// FCS): preamble + SFD (8), FCS (4), minimum inter-frame gap (12).
inline constexpr uint32_t kEthernetPreambleBytes = 8;
inline constexpr uint32_t kEthernetFcsBytes = 4;
inline constexpr uint32_t kEthernetIfgBytes = 12;
inline constexpr uint32_t kEthernetOverheadBytes =
    kEthernetPreambleBytes + kEthernetFcsBytes + kEthernetIfgBytes;

// Destination, source, EtherType; an 802.1Q tag adds 4 (a frame's length allowance above MTU).
inline constexpr uint32_t kEthernetHeaderBytes = 14;
inline constexpr uint32_t kVlanTagBytes = 4;

// Smallest frame without FCS (64 on the wire with FCS).
inline constexpr uint32_t kEthernetMinFrameBytes = 60;

inline constexpr uint64_t kBitsPerByte = 8;

}  // namespace fcswitch

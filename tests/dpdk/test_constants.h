#pragma once
// Constants several DPDK test files share, defined once: the test binary is a unity build
// (its files compiled a few at a time as one unit), where two files' definitions would meet.

#include <cstdint>

namespace fcswitch::test_constants {

inline constexpr uint64_t kSinkMac = 0x02'00'00'00'00'0Bull;  // the sink host's MAC
inline constexpr uint64_t kHostMac = 0x02'00'00'00'00'01ull;  // a sending host's MAC
inline constexpr uint32_t kFrameBytes = 1000;                 // a test flow's frame
// The lab's fair crossbar (every switch model but the testbed's input turns), as a --set.
inline constexpr char kFairCrossbar[] = "switch.crossbar=egress-round-robin";

}  // namespace fcswitch::test_constants

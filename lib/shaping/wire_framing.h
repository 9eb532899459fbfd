#pragma once
// What a frame costs on the wire beyond the bytes DPDK hands us. A rate limiter that counted
// only those bytes would let 64-byte frames through at 1.4× the rate it was set to.

#include <algorithm>
#include <cstdint>

#include "core/units.h"

namespace fcswitch::shaping {

struct WireFraming {
  // Preamble + SFD (8), FCS (4), inter-frame gap (12): DPDK's lengths exclude the FCS.
  uint32_t overhead_bytes = kEthernetOverheadBytes;
  // Shorter frames are padded to this by the MAC before the FCS.
  uint32_t min_frame_bytes = kEthernetMinFrameBytes;

  uint64_t wire_bits(uint32_t frame_bytes) const {
    return static_cast<uint64_t>(std::max(frame_bytes, min_frame_bytes) + overhead_bytes) *
           kBitsPerByte;
  }
};

}  // namespace fcswitch::shaping

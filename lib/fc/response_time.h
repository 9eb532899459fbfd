#pragma once
// τ, the worst-case time from a receiver's feedback decision to the change reaching its
// input (GFC §5.4, Eq. 6): τ ≤ 2·MTU/C + 2·t_w + t_r. With the paper's values (t_w = 1 µs of
// wire, t_r = 3 µs of processing) that is 7.4/5.6/5.2 µs at 10/40/100 Gb/s for Ethernet
// (MTU 1500 B) and 11.4/6.6/5.6 µs for InfiniBand (MTU 4000 B).
// A software switch is slower (its NIC TX ring adds to t_r; the GFC testbed measured 90 µs):
// configure what you measured, end to end; a configured τ already holds the ring's drain.
//
// Eq. 6's two MTU/C are one frame at each end: the feedback frame waits behind the frame being
// sent, and the sender's new rate waits behind the frame it is sending. Our TX has c frames
// committed past its gate at each end (one TX commit and the one on the wire,
// LinkParams::committed_frames): the feedback frame waits behind c, and c reach the receiver
// at C after the new rate. The default τ counts them: 2·c·MTU/C + 2·t_w + t_r; c = 1 is Eq. 6.

#include <cstdint>

#include "core/tick_rate.h"
#include "core/units.h"

namespace fcswitch::fc {

inline constexpr uint64_t kEq6MtuBytes = 1500;
inline constexpr uint64_t kEq6InfinibandMtuBytes = 4000;
inline constexpr uint64_t kEq6WireNs = 1000;
inline constexpr uint64_t kEq6ProcessingNs = 3000;

// GFC Eq. 6 with `committed_frames` frames at each end, each MTU time rounded up to the ns.
constexpr uint64_t eq6_response_time_ns(uint64_t rate_bps, uint64_t mtu_bytes = kEq6MtuBytes,
                                        uint64_t wire_ns = kEq6WireNs,
                                        uint64_t processing_ns = kEq6ProcessingNs,
                                        uint64_t committed_frames = 1) {
  const uint64_t mtu_ns = (mtu_bytes * kBitsPerByte * kNsPerSecond + rate_bps - 1) / rate_bps;
  return 2 * committed_frames * mtu_ns + 2 * wire_ns + processing_ns;
}

static_assert(eq6_response_time_ns(10'000'000'000) == 7400);
static_assert(eq6_response_time_ns(40'000'000'000) == 5600);
static_assert(eq6_response_time_ns(100'000'000'000) == 5240);  // the paper rounds to 5.2 µs
// A port's default: a TX burst of 32 and the one on the wire at each end (Eq. 6: 7.4 µs).
static_assert(eq6_response_time_ns(10'000'000'000, kEq6MtuBytes, kEq6WireNs, kEq6ProcessingNs,
                                   33) == 84'200);

}  // namespace fcswitch::fc

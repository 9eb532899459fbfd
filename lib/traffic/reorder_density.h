#pragma once
// Reorder Density's displacement of a received frame (PABO §IV-A, Eq. 5; RFC 5236 §2 without
// its threshold D_T): d = r − s, where s is the frame's send index — the flow's sequence
// number, which a retransmission keeps, as the authors' sentSeqQueue labels a resent segment
// with its first sending order — and r its receive index, the count of distinct frames of the
// flow received before it (lost copies and duplicates get none). d > 0: late; d < 0: early;
// d = 0: in order. PABO's Fig. 12 is the CDF of |d|; the sink keeps it in log2 buckets.

#include <algorithm>
#include <bit>
#include <cstdint>

namespace fcswitch::lab {

// |d| = 0, 1, 2–3, 4–7, 8–15, 16–31, 32–63, 64–127, 128 or more.
inline constexpr int kDisplacementBuckets = 9;

constexpr uint64_t displacement_magnitude(uint64_t receive_index, uint64_t send_index) {
  return receive_index >= send_index ? receive_index - send_index : send_index - receive_index;
}

// The bucket of |d|: 0 for 0, else ⌊log2 |d|⌋ + 1, the last bucket holding the rest.
constexpr int displacement_bucket(uint64_t magnitude) {
  return std::min(static_cast<int>(std::bit_width(magnitude)), kDisplacementBuckets - 1);
}

}  // namespace fcswitch::lab

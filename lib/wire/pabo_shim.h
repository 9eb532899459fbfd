#pragma once
// PABO's bounce header (PABO §II-F and §III "EtherFrame"): the bounce count n_p that Eq. 4
// reads, and the paper's statistics fields, in a shim of ours under the IEEE 802 local
// experimental EtherType. It is inserted by the first switch that bounces a frame, so frames
// that were never bounced carry nothing extra; the frame's own EtherType moves behind it:
//
//   0  destination, 6 source, then any VLAN tags (4 bytes each) as they were
//   T  EtherType    0x88B5 (IEEE 802 local experimental)
//  +2  subtype      0xB0 (wire/local_experimental.h)
//  +3  version      1
//  +4  bounces      n_p, u16 big-endian: +1 at each bounce, unchanged by a normal forward
//                   (the paper's bouncedHop)
//  +6  distance     u8: hops the frame is behind the farthest switch it reached normally;
//                   +1 at a bounce, -1 (not below 0) at a normal forward (the paper's
//                   bouncedDistance; its text says "increase": NOTES.md)
//  +7  max distance u8: the largest distance so far (maxBouncedDistance)
//  +8  hops         u16: switches that forwarded or bounced the frame since the shim was
//                   inserted, the inserting bounce included. The paper's totalHop counts from
//                   the sender; on a loop-free single path it is the path's switch count plus
//                   2 n_p (each bounce is one step back and one forward again).
// +10  EtherType    the frame's own (IPv4, IPv6, ...), then its payload unchanged
//
// The counters saturate at their maximum instead of wrapping. The VLAN tags stay in front, so
// the PCP a switch trusts is where it was; parse_frame_header (wire/frame_header.h) reads past
// the shim to the IP header, so DSCP classification, Tagger and the ECMP hash see a bounced
// frame as they saw it before.

#include <cstddef>
#include <cstdint>

namespace fcswitch::wire {

inline constexpr uint8_t kPaboShimVersion = 1;
// Bytes the shim adds to a frame: from its EtherType to the frame's own EtherType.
inline constexpr size_t kPaboShimBytes = 10;

struct PaboShim {
  uint16_t bounces = 0;
  uint8_t distance = 0;
  uint8_t max_distance = 0;
  uint16_t hops = 0;
  friend bool operator==(const PaboShim&, const PaboShim&) = default;
};

// Reads the shim that starts (with its EtherType) at `shim`; the caller checked its length,
// subtype and version (parse_frame_header does).
PaboShim read_pabo_shim(const uint8_t* shim);
// Writes EtherType, subtype, version and the fields at `shim` (kPaboShimBytes bytes); the
// inner EtherType after it is left as it is.
void write_pabo_shim(uint8_t* shim, const PaboShim& fields);

// What a switch does to the fields (PABO §III): a bounce, and a normal forward.
constexpr PaboShim bounced(PaboShim s) {
  if (s.bounces != UINT16_MAX) ++s.bounces;
  if (s.distance != UINT8_MAX) ++s.distance;
  if (s.distance > s.max_distance) s.max_distance = s.distance;
  if (s.hops != UINT16_MAX) ++s.hops;
  return s;
}
constexpr PaboShim forwarded(PaboShim s) {
  if (s.distance) --s.distance;
  if (s.hops != UINT16_MAX) ++s.hops;
  return s;
}

// Inserts a shim with `fields` into the frame at `frame` (`length` bytes, `shim_offset` the
// offset of its EtherType: 12, or 16/20 behind VLAN tags), which must have kPaboShimBytes free
// in front of it: the addresses and tags move forward into them. Returns the new start.
uint8_t* insert_pabo_shim(uint8_t* frame, size_t shim_offset, const PaboShim& fields);
// Removes the shim at `shim_offset`: the addresses and tags move back over it. Returns the new
// start (kPaboShimBytes later).
uint8_t* remove_pabo_shim(uint8_t* frame, size_t shim_offset);

}  // namespace fcswitch::wire

#pragma once
// Parses the headers the switch looks at: Ethernet, up to two VLAN tags, and the DSCP of
// IPv4/IPv6. Pure and bounds-checked: any byte string is safe to hand it (fuzzed in
// tests/fuzz). The offsets let later stages (Tagger's DSCP rewrite) edit the frame in place.

#include <cstddef>
#include <cstdint>

#include "wire/mac_address.h"

namespace fcswitch::wire {

enum class FrameStatus : uint8_t {
  kOk,
  kRunt,       // ends inside its Ethernet header (14 bytes, 4 more per VLAN tag)
  kMalformed,  // an IP header runs past the end, or is not what its EtherType says; or a
               // PABO shim that is cut short or of another version
};

enum class L3Kind : uint8_t { kOther, kIpv4, kIpv6 };

// 32 bytes, the addresses first: FWD keeps a burst of them, and fills each in place.
struct FrameHeader {
  MacAddress dst;
  MacAddress src;
  FrameStatus status = FrameStatus::kMalformed;
  uint16_t ether_type = 0;  // after any VLAN tags and PABO shim: the frame's own
  bool has_vlan = false;
  uint8_t pcp = 0;  // of the outer tag, when has_vlan
  uint16_t vlan_id = 0;
  L3Kind l3 = L3Kind::kOther;
  uint8_t dscp = 0;        // when l3 is IPv4 or IPv6
  uint16_t l3_offset = 0;  // byte offset of the IP header
  // A PABO shim (wire/pabo_shim.h): the offset of its EtherType, 0 when there is none; and
  // its bounce count n_p.
  uint16_t pabo_offset = 0;
  uint16_t bounces = 0;

  bool has_pabo_shim() const { return pabo_offset != 0; }
};
static_assert(sizeof(FrameHeader) == 32);

// Any frame with a whole Ethernet header is parsed, however short: a Linux host sends its
// 42-byte ARP unpadded on a tap, veth or memif, and only a NIC pads it to the 60-byte minimum
// on the wire (IEEE 802.3 §4.2.3.3). A switch forwards such frames; the TX task pads them
// where the port does not (TxTask, NicProfile::pads_short_frames).
FrameHeader parse_frame_header(const uint8_t* data, size_t length);

}  // namespace fcswitch::wire

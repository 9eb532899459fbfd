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
  kRunt,       // shorter than the Ethernet minimum
  kMalformed,  // a header runs past the end, or an IP header is not what its EtherType says
};

enum class L3Kind : uint8_t { kOther, kIpv4, kIpv6 };

struct FrameHeader {
  FrameStatus status = FrameStatus::kMalformed;
  MacAddress dst;
  MacAddress src;
  uint16_t ether_type = 0;  // after any VLAN tags
  bool has_vlan = false;
  uint8_t pcp = 0;  // of the outer tag, when has_vlan
  uint16_t vlan_id = 0;
  L3Kind l3 = L3Kind::kOther;
  uint8_t dscp = 0;        // when l3 is IPv4 or IPv6
  uint16_t l3_offset = 0;  // byte offset of the IP header
};

// `min_frame_bytes` is the runt limit (60 for Ethernet without FCS; 0 disables the check).
FrameHeader parse_frame_header(const uint8_t* data, size_t length, size_t min_frame_bytes);

}  // namespace fcswitch::wire

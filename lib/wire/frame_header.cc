#include "wire/frame_header.h"

#include "wire/big_endian.h"
#include "wire/ether_type.h"
#include "wire/local_experimental.h"
#include "wire/pabo_shim.h"

namespace fcswitch::wire {

namespace {

constexpr size_t kEthernetHeaderBytes = 14;
constexpr size_t kVlanTagBytes = 4;
constexpr size_t kIpv4MinHeaderBytes = 20;
constexpr size_t kIpv6HeaderBytes = 40;

// The frame's own EtherType `type` and its IP header at `l3`, if it is IP: a well-formed
// header gives its DSCP, a cut or inconsistent one leaves the frame malformed.
[[gnu::always_inline]] inline void parse_ip(FrameHeader& h, const uint8_t* data, size_t length,
                                            uint16_t type, size_t l3) {
  h.ether_type = type;
  h.l3_offset = static_cast<uint16_t>(l3);

  if (type == kEtherTypeIpv4) {
    if (l3 + kIpv4MinHeaderBytes > length) return;
    const uint8_t version = data[l3] >> 4;
    const size_t ihl_bytes = static_cast<size_t>(data[l3] & 0x0F) * 4;
    if (version != 4 || ihl_bytes < kIpv4MinHeaderBytes || l3 + ihl_bytes > length) return;
    h.l3 = L3Kind::kIpv4;
    h.dscp = data[l3 + 1] >> 2;  // TOS byte: DSCP(6) | ECN(2)
  } else if (type == kEtherTypeIpv6) {
    if (l3 + kIpv6HeaderBytes > length) return;
    if ((data[l3] >> 4) != 6) return;
    h.l3 = L3Kind::kIpv6;
    // Version(4) | Traffic Class(8) | Flow Label(20); DSCP is the top 6 bits of the class.
    const uint8_t traffic_class = static_cast<uint8_t>((data[l3] & 0x0F) << 4 | data[l3 + 1] >> 4);
    h.dscp = traffic_class >> 2;
  }
  h.status = FrameStatus::kOk;
}

}  // namespace

FrameHeader parse_frame_header(const uint8_t* data, size_t length) {
  FrameHeader h;
  if (length < kEthernetHeaderBytes) {
    h.status = FrameStatus::kRunt;
    return h;
  }
  h.dst = MacAddress::destination_of_header(data);
  h.src = MacAddress::source_of_header(data);

  size_t offset = 12;
  uint16_t type = load_be16(data + offset);
  // Most frames: IPv4 straight after the addresses, no tag, no shim.
  if (type == kEtherTypeIpv4) [[likely]] {
    parse_ip(h, data, length, type, offset + 2);
    return h;
  }
  // Up to two tags (QinQ); the outer one carries the PCP the switch trusts.
  for (int tags = 0; (type == kEtherTypeVlan || type == kEtherTypeQinQ) && tags < 2; ++tags) {
    if (offset + kVlanTagBytes + 2 > length) {  // the tag, then the next EtherType
      h.status = FrameStatus::kRunt;            // the frame ends inside its tags
      return h;
    }
    const uint16_t tci = load_be16(data + offset + 2);
    if (!h.has_vlan) {
      h.has_vlan = true;
      h.pcp = static_cast<uint8_t>(tci >> 13);
      h.vlan_id = tci & 0x0FFF;
    }
    offset += kVlanTagBytes;
    type = load_be16(data + offset);
  }
  // A bounced frame: PABO's shim, then the frame's own EtherType (wire/pabo_shim.h).
  if (type == kEtherTypeLocalExperimental1 && offset + 3 <= length &&
      data[offset + 2] == static_cast<uint8_t>(LocalSubtype::kPabo)) {
    if (offset + kPaboShimBytes + 2 > length || data[offset + 3] != kPaboShimVersion) return h;
    h.pabo_offset = static_cast<uint16_t>(offset);
    h.bounces = load_be16(data + offset + 4);
    offset += kPaboShimBytes;
    type = load_be16(data + offset);
  }
  parse_ip(h, data, length, type, offset + 2);
  return h;
}

}  // namespace fcswitch::wire

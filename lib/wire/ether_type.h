#pragma once

#include <cstdint>

namespace fcswitch::wire {

inline constexpr uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr uint16_t kEtherTypeArp = 0x0806;
inline constexpr uint16_t kEtherTypeVlan = 0x8100;  // 802.1Q C-tag
inline constexpr uint16_t kEtherTypeQinQ = 0x88A8;  // 802.1ad S-tag
inline constexpr uint16_t kEtherTypeIpv6 = 0x86DD;
inline constexpr uint16_t kEtherTypeMacControl = 0x8808;          // 802.3 MAC control (PFC, PAUSE)
inline constexpr uint16_t kEtherTypeLocalExperimental1 = 0x88B5;  // IEEE 802 local experimental

// EtherTypes that carry traffic a switch forwards (IANA/IEEE registrations): a port that
// took one of them for its flow-control frames would consume that traffic as malformed
// control frames.
constexpr bool carries_data(uint16_t ether_type) {
  switch (ether_type) {
    case kEtherTypeIpv4:
    case kEtherTypeArp:
    case 0x8035:  // RARP
    case kEtherTypeVlan:
    case kEtherTypeQinQ:
    case 0x9100:  // pre-standard QinQ
    case kEtherTypeIpv6:
    case 0x8847:  // MPLS unicast
    case 0x8848:  // MPLS multicast
    case 0x8863:  // PPPoE discovery
    case 0x8864:  // PPPoE session
    case 0x8906:  // FCoE
    case 0x8914:  // FIP
    case 0x88CC:  // LLDP
    case 0x88E5:  // MACsec
    case 0x88F7:  // PTP
      return true;
    default:
      return false;
  }
}

}  // namespace fcswitch::wire

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

}  // namespace fcswitch::wire

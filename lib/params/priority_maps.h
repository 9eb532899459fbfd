#pragma once
// Which priority a frame belongs to: DSCP and PCP maps and the trust mode
// (switch/priority_classifier.h applies them).

#include <array>
#include <cstdint>

namespace fcswitch {

enum class TrustMode : uint8_t {
  kDscp,  // IP packets by DSCP; else a tagged frame by PCP; else the default priority
  kPcp,   // tagged frames by PCP; else IP packets by DSCP; else the default priority
};

struct PriorityMaps {
  std::array<uint8_t, 64> dscp_to_priority{};
  std::array<uint8_t, 8> pcp_to_priority{};
  uint8_t default_priority = 0;
  TrustMode trust = TrustMode::kDscp;

  // DSCP → its class selector (DSCP >> 3, RFC 2474 §4.2.2), PCP → itself.
  static PriorityMaps standard() {
    PriorityMaps maps;
    for (int dscp = 0; dscp < 64; ++dscp)
      maps.dscp_to_priority[dscp] = static_cast<uint8_t>(dscp >> 3);
    for (int pcp = 0; pcp < 8; ++pcp) maps.pcp_to_priority[pcp] = static_cast<uint8_t>(pcp);
    return maps;
  }
};

}  // namespace fcswitch

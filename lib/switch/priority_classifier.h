#pragma once
// Frame → priority, from the DSCP (IPv4/IPv6) or the VLAN PCP, as the port's trust mode says.

#include <array>
#include <cstdint>

#include "wire/frame_header.h"

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
  static PriorityMaps standard();
};

class PriorityClassifier {
 public:
  explicit PriorityClassifier(const PriorityMaps& maps) : maps_(maps) {}

  uint8_t classify(const wire::FrameHeader& header) const {
    const bool ip = header.l3 != wire::L3Kind::kOther;
    if (maps_.trust == TrustMode::kPcp && header.has_vlan) return maps_.pcp_to_priority[header.pcp];
    if (ip) return maps_.dscp_to_priority[header.dscp];
    if (header.has_vlan) return maps_.pcp_to_priority[header.pcp];
    return maps_.default_priority;
  }

 private:
  PriorityMaps maps_;
};

}  // namespace fcswitch

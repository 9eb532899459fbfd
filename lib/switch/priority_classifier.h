#pragma once
// Frame → priority, from the DSCP (IPv4/IPv6) or the VLAN PCP, as the port's trust mode says.

#include <array>
#include <cstdint>

#include "params/priority_maps.h"
#include "wire/frame_header.h"

namespace fcswitch {

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

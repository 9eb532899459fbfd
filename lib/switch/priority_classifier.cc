#include "switch/priority_classifier.h"

namespace fcswitch {

PriorityMaps PriorityMaps::standard() {
  PriorityMaps maps;
  for (int dscp = 0; dscp < 64; ++dscp)
    maps.dscp_to_priority[dscp] = static_cast<uint8_t>(dscp >> 3);
  for (int pcp = 0; pcp < 8; ++pcp) maps.pcp_to_priority[pcp] = static_cast<uint8_t>(pcp);
  return maps;
}

}  // namespace fcswitch

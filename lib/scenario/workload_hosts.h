#pragma once
// What a workload needs to know of the lab's hosts: each host's node, name, rack and link rate.
// A host's rack is the node its one link goes to (its ToR): GFC §6.2.3 sends each flow "to a
// destination in different racks", and Pyrrha §6 draws incast senders outside the destination's
// rack, so "rack" is exactly "the switch a host hangs off".

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

struct WorkloadHost {
  int node = -1;  // index into LabScenario::nodes
  std::string name;
  int rack = -1;  // the node at the far end of the host's link
  uint64_t link_rate_bps = 0;
};

struct HostInfo {
  std::vector<WorkloadHost> hosts;  // in node order

  // Index into `hosts` of the host named `name`; -1 when there is none.
  int find(std::string_view name) const;
};

// The hosts among `node_names` (is_host[n] says which), each with the rack and rate of its
// link in `links`. A host with no link is left out: it can send nothing. Usable while a
// scenario is read (names and links known, node configs not yet built) and after.
HostInfo host_info_from_links(const std::vector<std::string>& node_names,
                              const std::vector<bool>& is_host,
                              const std::vector<LabLinkSpec>& links);
HostInfo host_info_of(const LabScenario& scenario);

}  // namespace fcswitch::lab

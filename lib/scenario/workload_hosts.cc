#include "scenario/workload_hosts.h"

namespace fcswitch::lab {

int HostInfo::find(std::string_view name) const {
  for (size_t i = 0; i < hosts.size(); ++i)
    if (hosts[i].name == name) return static_cast<int>(i);
  return -1;
}

HostInfo host_info_from_links(const std::vector<std::string>& node_names,
                              const std::vector<bool>& is_host,
                              const std::vector<LabLinkSpec>& links) {
  HostInfo info;
  for (size_t n = 0; n < node_names.size() && n < is_host.size(); ++n) {
    if (!is_host[n]) continue;
    const int node = static_cast<int>(n);
    for (const LabLinkSpec& link : links) {
      // A host has one port (its NIC), so its first link is its only one.
      const bool a = link.a.node == node, b = link.b.node == node;
      if (!a && !b) continue;
      info.hosts.push_back(
          WorkloadHost{node, node_names[n], a ? link.b.node : link.a.node, link.rate_bps});
      break;
    }
  }
  return info;
}

HostInfo host_info_of(const LabScenario& scenario) {
  std::vector<std::string> names;
  std::vector<bool> hosts;
  for (const LabNode& node : scenario.nodes) {
    names.push_back(node.name);
    hosts.push_back(node.host);
  }
  return host_info_from_links(names, hosts, scenario.links);
}

}  // namespace fcswitch::lab

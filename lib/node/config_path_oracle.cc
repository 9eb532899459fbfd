#include "node/config_path_oracle.h"

#include <algorithm>

namespace fcswitch {

ConfigPathOracle::ConfigPathOracle(const config::PyrrhaSettings& settings, int ports)
    : host_ports_(static_cast<size_t>(ports), false) {
  for (const config::PyrrhaPath& path : settings.paths) {
    std::vector<pyrrha::PathHop>& hops = paths_[key(path.egress, path.dst)];
    for (const config::PyrrhaHop& hop : path.hops) hops.push_back({hop.switch_id, hop.port});
  }
  for (int port : settings.host_ports)
    if (port >= 0 && port < ports) host_ports_[port] = true;
}

size_t ConfigPathOracle::onward_path(int egress, const wire::MacAddress& dst,
                                     const topology::FiveTuple&,
                                     std::span<pyrrha::PathHop> out) const {
  const auto found = paths_.find(key(egress, dst));
  if (found == paths_.end()) return 0;
  const size_t n = std::min(out.size(), found->second.size());
  std::copy_n(found->second.begin(), n, out.begin());
  return n;
}

}  // namespace fcswitch

#include "topology/host_table.h"

namespace fcswitch::topology {

HostTable::HostTable(const Topology& topo) {
  for (int sw = 0; sw < topo.switches(); ++sw)
    for (int port = 0; port < static_cast<int>(topo.at(sw).ports.size()); ++port) {
      const TopologyPort& p = topo.at(sw).ports[port];
      if (p.peer == PeerKind::kHost) hosts_.push_back({p.host, sw, port});
    }
}

HostId HostTable::find(std::string_view name) const {
  for (HostId h = 0; h < size(); ++h)
    if (hosts_[h].name == name) return h;
  return -1;
}

}  // namespace fcswitch::topology

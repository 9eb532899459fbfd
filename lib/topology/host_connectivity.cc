#include "topology/host_connectivity.h"

#include <algorithm>

namespace fcswitch::topology {

HostConnectivity host_connectivity(const Topology& topo) {
  // Connected parts of the switch graph, by BFS in switch order (so numbering is stable).
  constexpr int kUnseen = -1;
  std::vector<int> part(topo.switches(), kUnseen);
  int parts = 0;
  for (int start = 0; start < topo.switches(); ++start) {
    if (part[start] != kUnseen) continue;
    std::vector<int> frontier{start};
    part[start] = parts;
    for (size_t next = 0; next < frontier.size(); ++next)
      for (const TopologyPort& p : topo.at(frontier[next]).ports)
        if (p.peer == PeerKind::kSwitch && part[p.peer_switch] == kUnseen) {
          part[p.peer_switch] = parts;
          frontier.push_back(p.peer_switch);
        }
    ++parts;
  }

  const HostTable hosts(topo);
  HostConnectivity out;
  // Renumber the parts that hold hosts 0… in order of their first host.
  std::vector<int> renumbered(parts, kUnseen);
  std::vector<int64_t> hosts_in;
  for (const HostAttachment& h : hosts.all()) {
    int& c = renumbered[part[h.sw]];
    if (c == kUnseen) {
      c = out.components++;
      hosts_in.push_back(0);
    }
    out.component.push_back(c);
    ++hosts_in[c];
  }
  if (out.components == 0) return out;
  const int largest =
      static_cast<int>(std::max_element(hosts_in.begin(), hosts_in.end()) - hosts_in.begin());
  for (HostId h = 0; h < hosts.size(); ++h)
    if (out.component[h] != largest) out.cut_off.push_back(h);
  const int64_t all = static_cast<int64_t>(hosts.size());
  int64_t same = 0;
  for (int64_t n : hosts_in) same += n * (n - 1) / 2;
  out.disconnected_pairs = all * (all - 1) / 2 - same;
  return out;
}

}  // namespace fcswitch::topology

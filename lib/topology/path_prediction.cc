#include "topology/path_prediction.h"

namespace fcswitch::topology {

std::vector<Hop> predict_path(const RouteTable& routes, const Topology& topo, HostId src,
                              HostId dst, const FiveTuple& tuple, std::span<const uint32_t> seeds) {
  const HostTable& hosts = routes.hosts();
  if (src < 0 || src >= hosts.size() || dst < 0 || dst >= hosts.size()) return {};
  std::vector<Hop> path;
  int sw = hosts.at(src).sw;
  int in_port = hosts.at(src).port;
  // A loop-free path visits each switch once; one more hop than that is a loop.
  while (static_cast<int>(path.size()) < topo.switches()) {
    const int out_port = ecmp_port(routes.next_ports(sw, dst), tuple, seeds[sw]);
    if (out_port < 0) return {};
    path.push_back({sw, in_port, out_port});
    const TopologyPort& out = topo.at(sw).ports[out_port];
    if (out.peer == PeerKind::kHost) {
      if (sw == hosts.at(dst).sw && out_port == hosts.at(dst).port) return path;
      return {};
    }
    if (out.peer != PeerKind::kSwitch) return {};
    in_port = out.peer_port;
    sw = out.peer_switch;
  }
  return {};
}

}  // namespace fcswitch::topology

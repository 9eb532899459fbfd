#include "topology/path_prediction.h"

namespace fcswitch::topology {

namespace {

// From the packet's arrival at (sw, in_port) to `dst`: appends each switch it crosses. False
// when the tables drop it or loop it.
bool walk(const RouteTable& routes, const Topology& topo, int sw, int in_port, HostId dst,
          const FiveTuple& tuple, std::span<const uint32_t> seeds, std::vector<Hop>& path) {
  const HostTable& hosts = routes.hosts();
  // A loop-free path visits each switch once; one more hop than that is a loop.
  for (int hops = 0; hops < topo.switches(); ++hops) {
    const int out_port = ecmp_port(routes.next_ports(sw, dst), tuple, seeds[sw]);
    if (out_port < 0) return false;
    path.push_back({sw, in_port, out_port});
    const TopologyPort& out = topo.at(sw).ports[out_port];
    if (out.peer == PeerKind::kHost)
      return sw == hosts.at(dst).sw && out_port == hosts.at(dst).port;
    if (out.peer != PeerKind::kSwitch) return false;
    in_port = out.peer_port;
    sw = out.peer_switch;
  }
  return false;
}

}  // namespace

std::vector<Hop> predict_path(const RouteTable& routes, const Topology& topo, HostId src,
                              HostId dst, const FiveTuple& tuple, std::span<const uint32_t> seeds) {
  const HostTable& hosts = routes.hosts();
  if (src < 0 || src >= hosts.size() || dst < 0 || dst >= hosts.size()) return {};
  std::vector<Hop> path;
  if (!walk(routes, topo, hosts.at(src).sw, hosts.at(src).port, dst, tuple, seeds, path)) return {};
  return path;
}

std::vector<Hop> predict_onward(const RouteTable& routes, const Topology& topo, int sw,
                                int out_port, HostId dst, const FiveTuple& tuple,
                                std::span<const uint32_t> seeds) {
  const HostTable& hosts = routes.hosts();
  if (dst < 0 || dst >= hosts.size() || sw < 0 || sw >= topo.switches() || out_port < 0 ||
      out_port >= static_cast<int>(topo.at(sw).ports.size()))
    return {};
  const TopologyPort& out = topo.at(sw).ports[out_port];
  if (out.peer != PeerKind::kSwitch) return {};
  std::vector<Hop> path;
  if (!walk(routes, topo, out.peer_switch, out.peer_port, dst, tuple, seeds, path)) return {};
  return path;
}

}  // namespace fcswitch::topology

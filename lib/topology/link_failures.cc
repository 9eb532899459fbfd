#include "topology/link_failures.h"

#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace fcswitch::topology {

std::vector<SwitchLink> switch_links(const Topology& topo) {
  std::vector<SwitchLink> links;
  for (int sw = 0; sw < topo.switches(); ++sw) {
    const auto& ports = topo.at(sw).ports;
    for (int port = 0; port < static_cast<int>(ports.size()); ++port) {
      const TopologyPort& p = ports[port];
      if (p.peer != PeerKind::kSwitch) continue;
      if (std::pair(sw, port) < std::pair(p.peer_switch, p.peer_port))
        links.push_back({sw, port, p.peer_switch, p.peer_port});
    }
  }
  return links;
}

std::vector<SwitchLink> fail_links_at_random(const Topology& topo, double probability,
                                             uint64_t seed) {
  if (!(probability >= 0.0 && probability <= 1.0))
    throw std::invalid_argument("link failures: expected a probability in [0, 1], found " +
                                std::to_string(probability));
  std::mt19937_64 rng(seed);
  // The top 53 bits as a double in [0, 1): exact, and the same with every standard library.
  constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;
  std::vector<SwitchLink> failed;
  for (const SwitchLink& link : switch_links(topo))
    if (static_cast<double>(rng() >> 11) * kTwoToMinus53 < probability) failed.push_back(link);
  return failed;
}

Topology without_links(const Topology& topo, std::span<const SwitchLink> failed) {
  std::set<std::pair<int, int>> cut;
  for (const SwitchLink& link : failed) {
    cut.insert({link.switch_a, link.port_a});
    cut.insert({link.switch_b, link.port_b});
  }
  Topology out;
  for (const TopologySwitch& s : topo.all()) {
    const int sw = out.add_switch(s.name, s.tier);
    for (const TopologyPort& p : s.ports) out.add_port(sw, p.name);
  }
  for (int sw = 0; sw < topo.switches(); ++sw) {
    const auto& ports = topo.at(sw).ports;
    for (int port = 0; port < static_cast<int>(ports.size()); ++port) {
      const TopologyPort& p = ports[port];
      if (p.peer == PeerKind::kHost) out.attach_host(sw, p.host, port);
      if (p.peer == PeerKind::kSwitch &&
          std::pair(sw, port) < std::pair(p.peer_switch, p.peer_port) && !cut.contains({sw, port}))
        out.link(sw, port, p.peer_switch, p.peer_port);
    }
  }
  out.finish();
  return out;
}

}  // namespace fcswitch::topology

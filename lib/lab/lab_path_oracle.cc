#include "lab/lab_path_oracle.h"

#include "topology/path_prediction.h"
#include "topology/route_overrides.h"

namespace fcswitch::lab {

LabPathIndex::LabPathIndex(const LabRouting& r) : routing(r) {
  for (size_t h = 0; h < r.macs.size(); ++h)
    host_of_mac.emplace(r.macs[h].value, static_cast<topology::HostId>(h));
}

void LabPathIndex::refresh(const std::optional<topology::RouteTable>& routes,
                           const std::vector<std::vector<config::FibEntry>>& static_fib) {
  table = routes;
  if (!table) return;
  std::vector<topology::RouteOverride> overrides;
  for (size_t node = 0; node < static_fib.size() && node < routing.topology_switch.size(); ++node) {
    const int sw = routing.topology_switch[node];
    if (sw < 0) continue;
    for (const config::FibEntry& e : static_fib[node]) {
      const auto host = host_of_mac.find(e.mac.value);
      if (host == host_of_mac.end()) continue;  // not a host of the topology: never predicted
      topology::RouteOverride o{sw, host->second, {}};
      if (e.group.empty()) {
        o.ports.push_back(e.port);
      } else {
        o.ports.assign(e.group.begin(), e.group.end());
      }
      overrides.push_back(std::move(o));
    }
  }
  topology::apply_overrides(routing.topo, *table, overrides);
}

size_t LabPathOracle::onward_path(int egress, const wire::MacAddress& dst,
                                  const topology::FiveTuple& tuple,
                                  std::span<pyrrha::PathHop> out) const {
  if (!index_->table) return 0;
  const auto host = index_->host_of_mac.find(dst.value);
  if (host == index_->host_of_mac.end()) return 0;
  const LabRouting& r = index_->routing;
  const auto hops = topology::predict_onward(*index_->table, r.topo, sw_, egress, host->second,
                                             tuple, r.ecmp_seeds);
  size_t n = 0;
  for (; n < hops.size() && n < out.size(); ++n)
    out[n] =
        pyrrha::PathHop{static_cast<uint32_t>(hops[n].sw), static_cast<uint16_t>(hops[n].out_port)};
  return n;
}

bool LabPathOracle::faces_host(int port) const {
  const auto& ports = index_->routing.topo.at(sw_).ports;
  return port >= 0 && port < static_cast<int>(ports.size()) &&
         ports[port].peer == topology::PeerKind::kHost;
}

}  // namespace fcswitch::lab

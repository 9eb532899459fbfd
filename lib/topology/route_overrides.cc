#include "topology/route_overrides.h"

#include <stdexcept>

namespace fcswitch::topology {

void apply_overrides(const Topology& topo, RouteTable& routes,
                     std::span<const RouteOverride> overrides) {
  for (const RouteOverride& o : overrides) {
    if (o.sw < 0 || o.sw >= topo.switches())
      throw std::invalid_argument("route override: no switch " + std::to_string(o.sw));
    if (o.host < 0 || o.host >= routes.hosts().size())
      throw std::invalid_argument("route override on " + topo.at(o.sw).name + ": no host " +
                                  std::to_string(o.host));
    const int ports = static_cast<int>(topo.at(o.sw).ports.size());
    for (int port : o.ports)
      if (port < 0 || port >= ports)
        throw std::invalid_argument("route override on " + topo.at(o.sw).name + ": no port " +
                                    std::to_string(port));
    routes.set(o.sw, o.host, o.ports);
  }
}

RouteOverride override_by_name(const Topology& topo, const HostTable& hosts,
                               std::string_view switch_name, std::string_view host_name,
                               std::span<const std::string> port_names) {
  RouteOverride o;
  o.sw = topo.switch_index(switch_name);
  if (o.sw < 0)
    throw std::invalid_argument("route override: expected a switch, found \"" +
                                std::string(switch_name) + "\"");
  o.host = hosts.find(host_name);
  if (o.host < 0)
    throw std::invalid_argument("route override on " + std::string(switch_name) +
                                ": expected a host, found \"" + std::string(host_name) + "\"");
  for (const std::string& name : port_names) {
    const int port = topo.port_index(o.sw, name);
    if (port < 0)
      throw std::invalid_argument("route override on " + std::string(switch_name) + " to " +
                                  std::string(host_name) + ": expected a port of " +
                                  std::string(switch_name) + ", found \"" + name + "\"");
    o.ports.push_back(port);
  }
  return o;
}

}  // namespace fcswitch::topology

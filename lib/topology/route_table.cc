#include "topology/route_table.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace fcswitch::topology {

RouteTable::RouteTable(int switches, HostTable hosts)
    : switches_(switches),
      host_table_(std::move(hosts)),
      hosts_(host_table_.size()),
      groups_(static_cast<size_t>(switches) * static_cast<size_t>(hosts_)) {}

void RouteTable::set(int sw, HostId host, PortGroup ports) {
  if (sw < 0 || sw >= switches_ || host < 0 || host >= hosts_)
    throw std::out_of_range("route table: no switch " + std::to_string(sw) + " or host " +
                            std::to_string(host));
  // Ascending and without repeats, so that every program hashing onto a group sees the same
  // member order (the ECMP prediction depends on it).
  std::sort(ports.begin(), ports.end());
  ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
  groups_[index(sw, host)] = std::move(ports);
}

}  // namespace fcswitch::topology

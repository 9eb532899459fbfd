#pragma once
// A forwarding table for every switch: for each destination host, the group of ports a packet
// may leave by, ascending. One port is a plain route; several are an ECMP group, of which
// ecmp_port() (flow_hash.h) picks one per flow. An empty group: the host is unreachable.

#include <vector>

#include "topology/host_table.h"

namespace fcswitch::topology {

using PortGroup = std::vector<int>;

class RouteTable {
 public:
  // Empty groups for every (switch, host of `hosts`).
  RouteTable(int switches, HostTable hosts);

  int switches() const { return switches_; }
  // The hosts the table routes to, numbered as in the table.
  const HostTable& hosts() const { return host_table_; }
  const PortGroup& next_ports(int sw, HostId host) const { return groups_[index(sw, host)]; }
  void set(int sw, HostId host, PortGroup ports);

 private:
  size_t index(int sw, HostId host) const {
    return static_cast<size_t>(sw) * static_cast<size_t>(hosts_) + static_cast<size_t>(host);
  }

  int switches_;
  HostTable host_table_;
  int hosts_;
  std::vector<PortGroup> groups_;  // [sw * hosts_ + host]
};

}  // namespace fcswitch::topology

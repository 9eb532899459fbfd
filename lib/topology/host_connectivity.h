#pragma once
// Which hosts can still reach which, e.g. after random link failures (link_failures.h): GFC's
// failure experiments (§6.2.3) are only meaningful on networks whose hosts still talk, so a
// sweep checks this before running one.

#include <cstdint>
#include <vector>

#include "topology/host_table.h"
#include "topology/topology.h"

namespace fcswitch::topology {

struct HostConnectivity {
  std::vector<int> component;      // per host: its connected part of the network, 0…
  int components = 0;              // parts holding at least one host
  std::vector<HostId> cut_off;     // hosts outside the part holding the most hosts, ascending
  int64_t disconnected_pairs = 0;  // unordered host pairs that cannot reach each other

  bool connected(HostId a, HostId b) const { return component[a] == component[b]; }
  bool all_connected() const { return disconnected_pairs == 0; }
};

// Over switch-to-switch links (any direction; ports leading nowhere carry nothing). Hosts are
// numbered as in HostTable(topo).
HostConnectivity host_connectivity(const Topology& topo);

}  // namespace fcswitch::topology

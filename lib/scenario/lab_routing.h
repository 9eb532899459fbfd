#pragma once
// How the lab's switches route to its hosts ([topology] routing): the whole network as a
// topology::Topology, the rule (shortest paths or up-down, every equal-cost next hop an ECMP
// group), and the FIB entries each switch gets from them — before the run, and again when a
// link fails or comes back during it ([[events]] with reroute).

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_set>
#include <vector>

#include "params/switch_params.h"
#include "topology/link_failures.h"
#include "topology/route_table.h"
#include "topology/topology.h"
#include "wire/mac_address.h"

namespace fcswitch::lab {

enum class RoutingMode : uint8_t { kStatic, kShortest, kUpdown };

struct LabRouting {
  RoutingMode mode = RoutingMode::kStatic;
  topology::Topology topo;                      // switches' ports in the order of their configs
  std::vector<int> topology_switch;             // per lab node: its switch in `topo`; -1 for hosts
  std::vector<wire::MacAddress> macs;           // per host of `topo` (topology::HostTable order)
  std::vector<uint32_t> ecmp_seeds;             // per switch of `topo`
  std::optional<topology::RouteTable> initial;  // before any failure; none when static

  // Routes on the network minus `failed`. Throws std::invalid_argument (up-down needs tiers).
  topology::RouteTable routes(std::span<const topology::SwitchLink> failed = {}) const;
  // The switch-to-switch link between lab nodes' ports (node_a, port_a) and (node_b, port_b),
  // lower end first as topology::switch_links names links; none where an end is a host.
  std::optional<topology::SwitchLink> switch_link(int node_a, int port_a, int node_b,
                                                  int port_b) const;
  // Lab node `node`'s FIB entries from `table`: one per host it reaches (an ECMP group where
  // several ports are equally short), except the hosts whose MAC `static_macs` holds (the
  // switch's own `routes` win).
  std::vector<config::FibEntry> fib(int node, const topology::RouteTable& table,
                                    const std::unordered_set<uint64_t>& static_macs) const;
};

}  // namespace fcswitch::lab

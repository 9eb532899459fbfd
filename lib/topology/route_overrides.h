#pragma once
// Static routes laid over computed ones: a switch sends a destination host's packets out of
// the ports given, whatever the routing said — how a scenario pins the GFC ring's clockwise
// routes (config/lab/gfc-ring.toml) or the paths of a paper's case study.

#include <span>
#include <string>
#include <string_view>

#include "topology/route_table.h"
#include "topology/topology.h"

namespace fcswitch::topology {

struct RouteOverride {
  int sw = -1;
  HostId host = -1;
  PortGroup ports;  // an ECMP group of its own when more than one
};

// Replaces each override's group. Throws std::invalid_argument for a switch, host or port the
// topology does not have.
void apply_overrides(const Topology& topo, RouteTable& routes,
                     std::span<const RouteOverride> overrides);

// An override written with names, as a config does: switch "S1", host "H2", ports {"cw"}.
RouteOverride override_by_name(const Topology& topo, const HostTable& hosts,
                               std::string_view switch_name, std::string_view host_name,
                               std::span<const std::string> port_names);

}  // namespace fcswitch::topology

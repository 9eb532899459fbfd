#pragma once
// Random link failures as in GFC's large-scale simulations (GFC §6.2.3, Table 1: "the failure
// probability of each link is 5%", 10000 networks per scale), and the network that is left.

#include <cstdint>
#include <span>
#include <vector>

#include "topology/topology.h"

namespace fcswitch::topology {

// A switch-to-switch link, named by its lower end first: (switch_a, port_a) < (switch_b, port_b).
struct SwitchLink {
  int switch_a = -1;
  int port_a = -1;
  int switch_b = -1;
  int port_b = -1;
  friend bool operator==(const SwitchLink&, const SwitchLink&) = default;
};

// Every switch-to-switch link, in switch then port order of the lower end.
std::vector<SwitchLink> switch_links(const Topology& topo);

// Each switch-to-switch link fails independently with `probability` (0…1), in the order of
// switch_links(); deterministic in `seed` on every platform (no std:: distribution, whose
// output the standard leaves to the library). Host links never fail: a host cut off by its
// only link says nothing about routing. Throws std::invalid_argument for a probability
// outside [0, 1].
std::vector<SwitchLink> fail_links_at_random(const Topology& topo, double probability,
                                             uint64_t seed);

// The topology with `failed` links cut: their ports stay (same indices and names, so tables and
// configs still name them) but lead nowhere. Route on this to route around failures.
Topology without_links(const Topology& topo, std::span<const SwitchLink> failed);

}  // namespace fcswitch::topology

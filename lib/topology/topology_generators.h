#pragma once
// Topologies of the Tagger paper's evaluation (§8.2): three-tier Clos and FatTree (§4,
// Fig. 2), Jellyfish (Table 5) and BCube; the GFC ring (GFC §6.1, Fig. 1) and a two-tier
// leaf-spine. Each returns a finished Topology.

#include <cstdint>
#include <string>

#include "topology/topology.h"

namespace fcswitch::topology {

// A three-tier Clos: `pods` pods of `tors_per_pod` ToRs (tier 0) and `leaves_per_pod` leaves
// (tier 1), every ToR linked to every leaf of its pod; `spines` spines (tier 2). Without
// `spine_groups` every leaf is linked to every spine (Tagger Fig. 2); with it leaf i of each
// pod is linked to spine group i, spines / leaves_per_pod spines each (FatTree). Names: T1…,
// L1…, S1… counted across pods, hosts "T1h1"….
struct ClosShape {
  int pods = 2;
  int tors_per_pod = 2;
  int leaves_per_pod = 2;
  int spines = 2;
  int hosts_per_tor = 4;
  bool spine_groups = false;
};
Topology clos(const ClosShape& shape);

// FatTree(k) (Al-Fares et al.; GFC §6.2, Fig. 11): k pods of k/2 edge switches (ToRs, tier 0)
// and k/2 aggregation switches (tier 1), (k/2)² cores (tier 2), k/2 hosts per edge switch:
// 5k²/4 switches, k³/4 hosts, k³/2 switch-to-switch links (k = 4: 20, 16, 32).
//
// Names, and how the papers' figures map onto them (GFC §6.2.2 names cores S_C1…, aggregation
// switches S_A1… and hosts H_0…H_(k³/4−1), pod by pod, left to right):
//   cores        S1 … S(k²/4)        = S_C1 …  Aggregation switch i of every pod (0-based) is
//                                               linked to cores S(i·k/2 + 1) … S((i+1)·k/2).
//   aggregation  L1 … L(k²/2)        = S_A1 …  pod p holds L(p·k/2 + 1) … L((p+1)·k/2)
//   edge (ToR)   T1 … T(k²/2)        = S_E1 …  pod p holds T(p·k/2 + 1) … T((p+1)·k/2)
//   hosts        T<t>h<j>, j = 1…k/2 = H_n with n = (t−1)·k/2 + (j−1); see fat_tree_host()
// So the GFC case study's cycle S_C1 → S_A3 → S_C2 → S_A7 is S1 → L3 → S2 → L7 (the first
// aggregation switches of pods 1 and 3, both linked to cores S1 and S2), and its flow
// F1: H_0 → H_8 runs from T1h1 to T5h1. Ports: an edge switch's hosts, then its uplinks in
// aggregation order; an aggregation switch's downlinks, then its uplinks in core order.
Topology fat_tree(int k);

// The name fat_tree(k) gives the paper's host H_index (0-based, GFC Fig. 11).
std::string fat_tree_host(int k, int index);

// Jellyfish: `switches` switches of `ports` ports, `network_ports` of them (r) linking to a
// random r-regular graph (the construction of Singla et al.: join random pairs of free ports;
// when stuck, break a random link to make room), the rest to hosts. Deterministic in `seed`.
Topology jellyfish(int switches, int ports, int network_ports, uint64_t seed);

// BCube(n, k): n^(k+1) servers with k+1 ports each, and k+1 levels of n^k n-port switches;
// server a_k…a_0 is on port a_l of the level-l switch named by its other digits. Servers
// relay (they are nodes of the tagged graph) and each has one host port (its own stack).
Topology bcube(int n, int k);

// A ring of `switches` (>= 3) switches S1…SN, one host Hi on each (GFC §6.1, Fig. 1). Every
// switch has ports "h" (its host), "cw" and "ccw", in that order; Si:cw is linked to
// S(i+1):ccw, and SN:cw to S1:ccw. ring(3) is config/lab/gfc-ring.toml's network. No tiers.
Topology ring(int switches);

// A two-tier leaf-spine: `leaves` leaves L1… (tier 0, they face the hosts) each linked to every
// one of `spines` spines S1… (tier 1), `hosts_per_leaf` hosts "L<i>h<j>" on each leaf. Ports: a
// leaf's hosts, then its uplinks in spine order; a spine's downlinks in leaf order.
Topology leaf_spine(int leaves, int spines, int hosts_per_leaf);

}  // namespace fcswitch::topology

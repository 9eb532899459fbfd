#pragma once
// Topologies of the Tagger paper's evaluation (§8.2): three-tier Clos and FatTree (§4,
// Fig. 2), Jellyfish (Table 5) and BCube. Each returns a finished Topology.

#include <cstdint>

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

// FatTree(k): k pods of k/2 ToRs and k/2 aggregation switches, (k/2)² cores, k/2 hosts per ToR.
Topology fat_tree(int k);

// Jellyfish: `switches` switches of `ports` ports, `network_ports` of them (r) linking to a
// random r-regular graph (the construction of Singla et al.: join random pairs of free ports;
// when stuck, break a random link to make room), the rest to hosts. Deterministic in `seed`.
Topology jellyfish(int switches, int ports, int network_ports, uint64_t seed);

// BCube(n, k): n^(k+1) servers with k+1 ports each, and k+1 levels of n^k n-port switches;
// server a_k…a_0 is on port a_l of the level-l switch named by its other digits. Servers
// relay (they are nodes of the tagged graph) and each has one host port (its own stack).
Topology bcube(int n, int k);

}  // namespace fcswitch::topology

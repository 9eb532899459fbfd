#pragma once
// The one parser of topology specs such as `fat-tree:4`, shared by tagger-gen's --topology and
// the lab, so that a network is written the same way everywhere:
//
//   clos:PODS,TORS,LEAVES,SPINES,HOSTS   three-tier Clos, every leaf to every spine (Tagger Fig. 2)
//   fat-tree:K                           FatTree(K), K even (GFC Fig. 11; names in the generator)
//   jellyfish:N,PORTS,R[,SEED]           Jellyfish, R ports of each switch to the network, SEED 1
//   bcube:N,K                            BCube(N, K)
//   ring:N                               N switches in a cycle, a host on each (GFC Fig. 1)
//   leaf-spine:LEAVES,SPINES,HOSTS_PER_LEAF
//
// Numbers are plain decimal integers separated by commas, nothing else. A network of more
// than 2^21 ports (2 per link) is refused before it is built.

#include <string_view>

#include "topology/topology.h"

namespace fcswitch::topology {

// The finished topology a spec names. Throws std::invalid_argument saying which form was
// expected and what was found, e.g. "fat-tree:K: expected an even K >= 2, found 3".
Topology from_spec(std::string_view spec);

// True when the text before the first ':' names one of the generators above; false for, say,
// a file path, which a program may then read as a scenario instead.
bool names_generator(std::string_view spec);

// The forms above joined by " | ", for a program's --help.
std::string_view spec_forms();

}  // namespace fcswitch::topology

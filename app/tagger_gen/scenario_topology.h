#pragma once
// A Tagger topology from a TOML file in the lab's scenario schema: [[switches]] (name, ports,
// optional tier), [[hosts]] (name) and [[links]] (a, b as "switch:port" or a host name). A lab
// scenario is such a file, so tagger-gen generates rules for the network the lab runs.

#include <string>

#include "topology/topology.h"

namespace fcswitch::tagger_gen {

// Throws std::runtime_error naming file:line:column and the key.
topology::Topology read_scenario_topology(const std::string& path);

}  // namespace fcswitch::tagger_gen

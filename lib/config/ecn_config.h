#pragma once
// [ecn]: ECN marking on egress queues (RFC 3168; DCQCN §3.1), and each port's [ports.ecn],
// whose keys (all but `seed`) override [ecn]'s for that port, key by key, as
// [ports.flow_control] does [flow_control].

#include <vector>

#include <toml++/toml.h>

#include "params/switch_params.h"

namespace fcswitch::config {

class TableReader;

// Reads [ecn] from `root` and each port's ecn table (`port_tables[i]`, null when absent) into
// config.ecn and config.ports[i].ecn. Needs the ports and [pabo] read before.
void read_ecn(TableReader& root, const std::vector<const toml::table*>& port_tables,
              SwitchConfig& config);

}  // namespace fcswitch::config

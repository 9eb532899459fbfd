#pragma once
// The flow-control part of the configuration: which engine runs on each (port, lossless
// priority), with what parameters, and the per-port settings around it.
//
// Tables, most specific first, each key taken from the first table that has it:
//   [ports.flow_control.priority.N]  engine and engine keys for one priority of one port
//   [ports.flow_control]             this port
//   [flow_control.priority.N]        one priority on every port
//   [flow_control]                   every port
// Engine keys live in a sub-table named after the engine ([flow_control.pfc] xoff = ...).

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <toml++/toml.h>

#include "params/flow_control_params.h"

namespace fcswitch::config {

struct SwitchConfig;
class TableReader;

// Reads [flow_control] from `root` and each port's flow_control table (`port_tables[i]`,
// null when absent) into config.ports[i].flow_control. Needs ports, buffer and lossless
// priorities read first.
void read_flow_control(TableReader& root, const std::vector<const toml::table*>& port_tables,
                       SwitchConfig& config);

}  // namespace fcswitch::config

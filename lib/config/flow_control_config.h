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

#include "core/traffic_class.h"
#include "fc/engine_registry.h"
#include "fc/gate_watchdog.h"

namespace fcswitch::config {

struct PriorityFlowControl {
  const fc::EngineDescriptor* engine = nullptr;  // null: "none"
  std::shared_ptr<const fc::EngineParams> params;
};

struct PortFlowControl {
  std::array<PriorityFlowControl, kNumPriorities> priorities;
  bool trust = true;              // act on feedback frames received on this port
  uint64_t response_time_ns = 0;  // τ of the link (default: GFC Eq. 6 at the port rate)
  fc::WatchdogConfig watchdog;
  uint16_t stage_opcode = 0x0101;  // buffer-based GFC stage frames (default: PFC's, as GFC §5.1)
  // How late a TX poll may be before a rate limiter restarts its schedule (rate_limiter.h).
  uint64_t limiter_catch_up_ns = 20'000;
};

struct SwitchConfig;
class TableReader;

// Reads [flow_control] from `root` and each port's flow_control table (`port_tables[i]`,
// null when absent) into config.ports[i].flow_control. Needs ports, buffer and lossless
// priorities read first.
void read_flow_control(TableReader& root, const std::vector<const toml::table*>& port_tables,
                       SwitchConfig& config);

}  // namespace fcswitch::config

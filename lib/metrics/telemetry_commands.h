#pragma once
// fcswitch's commands on DPDK's telemetry socket, for dpdk-telemetry.py and the DPDK
// exporters:
//   /fcswitch/switches                    names of the switches in this process
//   /fcswitch/ports[,NODE]                per port: rx/tx packets and bytes, drops (columns)
//   /fcswitch/queues[,NODE],PORT          per priority: occupancy, queue depth, in/out counts
//   /fcswitch/fc[,NODE],PORT[,PRIO]       flow control per priority; with PRIO, the engine's
//                                         own counters too
//   /fcswitch/trace[,NODE][,start|stop]   the [trace] recorder: state, or start/stop it
// NODE may be left out when the process runs one switch (fcswitch); fclab runs many.
//
// DPDK 22.11's callbacks take no context pointer and cannot be unregistered, so the switches
// they serve are found in a process-wide table (the one exception to "no globals", as DPDK's
// own telemetry is process-wide): a switch is in it while its TelemetryRegistration lives,
// and a callback holds the table's lock while it reads, so the switch cannot go meanwhile.
// Telemetry data keeps to 22.11's shapes: a dict of scalars and of arrays, no nested dicts.

#include <string>

#include "metrics/occupancy_trace.h"
#include "node/switch_node.h"

namespace fcswitch::metrics {

class TelemetryRegistration {
 public:
  // Registers the commands with DPDK the first time (EAL may or may not be up yet).
  TelemetryRegistration(std::string node, const SwitchNode& node_ref, OccupancyTrace* trace);
  ~TelemetryRegistration();
  TelemetryRegistration(const TelemetryRegistration&) = delete;
  TelemetryRegistration& operator=(const TelemetryRegistration&) = delete;

 private:
  const SwitchNode* node_;
};

}  // namespace fcswitch::metrics

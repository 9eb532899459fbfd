#pragma once
// The flow-control engines of one port, made from its config: what a switch port runs, and
// what a lab host's port runs (the same engines at both ends of a link).

#include <array>
#include <string_view>

#include "config/switch_config.h"
#include "core/tick_rate.h"
#include "fc/engine.h"
#include "switch/tx_task.h"

namespace fcswitch {

// The link, clock and framing the port's engines serve (priority left 0).
fc::EngineContext port_engine_context(const config::PortConfig& port, uint64_t buffer_bytes,
                                      const TickRate& ticks);

// One instance per priority the config gives an engine; the others stay empty. `owner` names
// the port in the log ("S1 port p0").
std::array<fc::EngineInstance, kNumPriorities> make_port_engines(const config::PortConfig& port,
                                                                 const fc::EngineContext& context,
                                                                 std::string_view owner);

// Everything TX(port) needs for flow control: engines, watchdog, pacer, where its frames come
// from (`mac`, `control_pool`).
TxFlowControl make_tx_flow_control(const config::PortConfig& port, uint64_t buffer_bytes,
                                   const TickRate& ticks, wire::MacAddress mac,
                                   rte_mempool* control_pool, std::string_view owner);

}  // namespace fcswitch

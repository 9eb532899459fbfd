#pragma once
// The flow-control engine of each (port, priority) and the port's feedback settings, as the
// config reader leaves them (config/flow_control_config.h) and the node builds engines from.

#include <array>
#include <cstdint>
#include <memory>

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

}  // namespace fcswitch::config

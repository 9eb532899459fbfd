#pragma once
// What fcswitch and fchost allow of their ports, said while the config is read (a --check
// included), before the EAL starts: every port is an ethdev, so no more than the DPDK build
// can have (with more, the EAL refused the next vdev and the port seemed to have a bad device
// string); and each vdev's arguments are keys its driver declares (a driver refuses a device
// for a key it does not know, most without naming it).

#include <rte_config.h>

#include "config/switch_config.h"
#include "dpdk/driver_arguments.h"

namespace fcswitch::cli {

inline config::PortRules ethdev_port_rules() {
  config::PortRules rules;
  // The switch's port masks have 64 bits whatever DPDK allows (PortRules' default).
  if (RTE_MAX_ETHPORTS < 64)
    rules = {RTE_MAX_ETHPORTS,
             "RTE_MAX_ETHPORTS: the ethdevs this DPDK build can have; fclab's ports are not "
             "ethdevs",
             {}};
  rules.device_arguments =
      [](std::string_view device) -> std::optional<config::PortRules::Refusal> {
    const auto problem = dpdk::driver_argument_problem(device);
    if (!problem) return std::nullopt;
    return config::PortRules::Refusal{problem->expected, problem->found};
  };
  return rules;
}

}  // namespace fcswitch::cli

#pragma once
// Reads `fcswitch CONFIG.toml` into SwitchConfig (params/switch_params.h), validated.
// `config/*.toml` documents each key.

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "config/flow_control_config.h"
#include "config/observability_config.h"
#include "params/switch_params.h"

namespace fcswitch::config {

// What the program that opens the ports allows of them (fcswitch and fchost: their DPDK's).
struct PortRules {
  size_t ports = 64;                                 // the most ports a switch may have
  std::string_view why = "port masks have 64 bits";  // in the message refusing more
  // What a device's driver would refuse of its arguments (expected, found); nullopt when
  // nothing. Unset: devices are not checked (the lab's ports are not ethdevs).
  struct Refusal {
    std::string expected, found;
  };
  std::function<std::optional<Refusal>(std::string_view device)> device_arguments;
};

// The same from a parsed table (the lab builds one per switch from its scenario); values
// keep the places they were parsed from, which `file` names unless they came from elsewhere.
// `read_elsewhere`: top-level keys the caller reads itself (fchost's [host] and [[flows]]).
SwitchConfig read_switch_config(const toml::table& root, const std::string& file,
                                std::span<const std::string_view> read_elsewhere = {},
                                const PortRules& rules = {});
// Reads and validates `path`. Throws ConfigError with every problem found. fcswitch gives
// the ethdevs its DPDK build can have, and its drivers' keys, as `rules`.
SwitchConfig load_switch_config(const std::string& path, const PortRules& rules = {});
// The same from text; `file` names it in messages.
SwitchConfig parse_switch_config(std::string_view text, const std::string& file,
                                 const PortRules& rules = {});

class TableReader;

// A FIB entry's port at `key`: one port name, or a list of them (an ECMP group). Refuses, with
// the place, a value that is neither; returns the names as given (empty when refused).
std::vector<std::string> fib_port_names(TableReader& reader, std::string_view key);
// `names` as ports of `config` into entry.port and entry.group (a group only when more than
// one). Refuses an unknown or repeated name; false then.
bool resolve_fib_ports(TableReader& reader, std::string_view key,
                       const std::vector<std::string>& names, const SwitchConfig& config,
                       FibEntry& entry);

// The GFC testbed layout (RX and TX of each port on their own lcores, one FWD lcore: 2N+1
// lcores for N ports) and the compact one (every task on one lcore).
std::vector<std::vector<TaskRef>> testbed_layout(int ports);
std::vector<std::vector<TaskRef>> compact_layout(int ports);

std::string task_name(const TaskRef& task, const SwitchConfig& config);

}  // namespace fcswitch::config

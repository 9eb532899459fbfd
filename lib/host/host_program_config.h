#pragma once
// fchost's configuration (app/fchost): a lab host on a real port. The file is an fcswitch
// config for one port — the host's NIC, with the same [flow_control], [buffer], [classify],
// [eal] and [metrics] — plus [host] (its IPv4 address, how many flow ids its sink accounts)
// and [[flows]] written as a lab scenario's, with the destination given by address:
//
//   [[flows]]
//   id = 1                    # unique in the testbed: the receiving host accounts by it
//   to = "H2"                 # a name for the summary (optional)
//   to_mac = "02:00:00:00:00:02"
//   to_ip = "10.0.0.2"
//   priority = 3              # or dscp; frame, size, start, duration, rate, pattern, on, off,
//                             # burst, transport: as in a lab scenario (lab/flow_shape_reader.h)
//
// A flow over a transport is answered by its receiver, another fchost, which must know it and
// have the same [transport]:
//
//   [[receive]]
//   id = 1                    # the sender's flow id
//   transport = "window"      # window, dcqcn or timely: the sender's
//   from = "H1"               # a name for the summary (optional)
//
// config/testbed-82599-host.toml documents every key. Errors are fcswitch's: file:line:column,
// the key, what was expected and what was found; nothing starts.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/switch_config.h"
#include "scenario/lab_scenario.h"
#include "wire/mac_address.h"

namespace fcswitch::host {

struct HostFlow {
  lab::FlowSpec spec;  // src, dst unused: the host is the source, to_mac the destination
  std::string to;      // a name for the summary; to_mac's text when none was given
  wire::MacAddress to_mac;
  uint32_t to_ip = 0;
  // With [pyrrha]: every switch the flow crosses and the port it leaves each by, first to last
  // (`pyrrha_path`). The flow waits while one of them is a paused root (Pyrrha §4.4).
  std::vector<config::PyrrhaHop> pyrrha_path;
};

// A flow another host sends to this one over a transport ([[receive]]): this host's sink
// answers it (ACKs, CNPs), from the addresses and DSCP of its first frame.
struct HostReceive {
  uint32_t id = 0;
  lab::FlowTransport transport = lab::FlowTransport::kWindow;
  std::string from;  // a name for the summary (optional)
};

struct HostProgramConfig {
  std::string file;
  config::SwitchConfig node;  // one port, "nic" or as named; [switch] name is the host's
  uint32_t ip = 0;            // the source address of its flows
  uint32_t flow_ids = 1024;   // the sink accounts flows with ids in [0, flow_ids)
  std::vector<HostFlow> flows;
  // How its flows' transports behave, sending and answering: [transport] as a lab scenario's.
  // Both ends of a flow need the same.
  lab::TransportSettings transport;
  std::vector<HostReceive> receives;
};

inline constexpr uint32_t kMaxHostFlowIds = 65536;

// `rules`: what the program allows of the host's port (config::PortRules).
HostProgramConfig parse_host_program_config(std::string_view text, const std::string& file,
                                            const config::PortRules& rules = {});
// Reads and validates `path`. Throws config::ConfigError with every problem found.
HostProgramConfig load_host_program_config(const std::string& path,
                                           const config::PortRules& rules = {});

// "10.0.0.1" as a host-order address; nullopt when it is not dotted-quad IPv4.
std::optional<uint32_t> parse_ipv4(std::string_view text);
std::string ipv4_text(uint32_t address);

}  // namespace fcswitch::host

#include "host/host_program_config.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <set>

#include "config/config_error.h"
#include "config/config_problems.h"
#include "config/pyrrha_config.h"
#include "config/table_reader.h"
#include "config/text_file.h"
#include "config/toml_text.h"
#include "scenario/flow_shape_reader.h"

namespace fcswitch::host {

namespace {

using config::ConfigProblems;
using config::TableReader;

// Sections of an fcswitch config that mean nothing on a host: it forwards nothing.
constexpr std::string_view kSwitchOnlySections[] = {"fib", "tagger", "layout", "trace"};

// A host's path: the switches from its own to the destination's, one more than a switch's
// onward path holds.
constexpr size_t kMaxHostPathHops = config::kMaxPyrrhaPathHops + 1;

std::vector<config::PyrrhaHop> read_pyrrha_path(TableReader& r) {
  std::vector<config::PyrrhaHop> path;
  const toml::array* hops = r.array("pyrrha_path");
  if (!hops) return path;
  if (hops->empty() || hops->size() > kMaxHostPathHops) {
    r.refuse(
        "pyrrha_path",
        fmt::format("1 to {} hops, from the host's switch to the destination's", kMaxHostPathHops),
        fmt::format("{} hops", hops->size()));
    return {};
  }
  for (const toml::node& item : *hops) {
    const auto* text = item.as_string();
    const auto hop = text ? config::parse_pyrrha_hop(text->get()) : std::nullopt;
    if (!hop) {
      r.refuse("pyrrha_path", config::kPyrrhaHopForm, config::describe(item));
      return {};
    }
    path.push_back(*hop);
  }
  return path;
}

// What [pyrrha] means on a host: its class, the roots it remembers, how much it queues ahead
// (stage_bytes). The paths are its flows' own (pyrrha_path), not a switch's table; a flow's path
// needs the section and the section's class.
void check_pyrrha(const toml::table& root, const HostProgramConfig& out, ConfigProblems& problems) {
  const auto& pyrrha = out.node.pyrrha;
  for (std::string_view key : {"paths", "host_ports", "network"})
    if (const toml::node* given = root["pyrrha"][key].node(); given && pyrrha)
      problems.expected(given->source(), fmt::format("pyrrha.{}", key),
                        "nothing on a host: its flows give their own paths ([[flows]] "
                        "pyrrha_path)",
                        config::describe(*given));
  for (size_t i = 0; i < out.flows.size(); ++i) {
    const HostFlow& flow = out.flows[i];
    if (flow.pyrrha_path.empty()) continue;
    const toml::node* given = root["flows"][i]["pyrrha_path"].node();
    const std::string key = fmt::format("flows[{}].pyrrha_path", i);
    if (!pyrrha)
      problems.expected(given->source(), key, "a [pyrrha] section for the path to matter", "none");
    else if (flow.spec.priority != pyrrha->priority)
      problems.expected(
          given->source(), key, fmt::format("a flow of Pyrrha's priority {}", pyrrha->priority),
          fmt::format("priority {} (from its DSCP {})", flow.spec.priority, flow.spec.dscp));
  }
}

void read_host_section(TableReader& root, HostProgramConfig& out) {
  const toml::table* table = root.table("host", true);
  if (!table) return;
  TableReader r(*table, "host", root.problems());
  if (auto ip = r.string("ip", true)) {
    if (auto address = parse_ipv4(*ip)) {
      out.ip = *address;
    } else {
      r.refuse("ip", "an IPv4 address \"10.0.0.1\"");
    }
  }
  if (auto n = r.integer("flow_ids", 1, kMaxHostFlowIds)) out.flow_ids = static_cast<uint32_t>(*n);
  r.reject_unknown_keys();
}

void read_flows(TableReader& root, HostProgramConfig& out) {
  std::set<int64_t> ids;
  root.each_table("flows", [&](TableReader& r, size_t) {
    HostFlow flow;
    if (auto id = r.integer("id", 0, kMaxHostFlowIds - 1, true)) {
      flow.spec.id = static_cast<int>(*id);
      // The host's per-flow records (its sink's, its summary's) hold ids below flow_ids, and
      // the testbed's hosts share one id space: an id at or above it would have no record.
      if (*id >= static_cast<int64_t>(out.flow_ids))
        r.refuse("id", fmt::format("an id below [host] flow_ids ({})", out.flow_ids));
      else if (!ids.insert(*id).second)
        r.refuse("id", "an id no other flow of this host has");
    }
    if (auto mac = r.string("to_mac", true)) {
      if (auto parsed = wire::MacAddress::parse(*mac); parsed && !parsed->is_multicast()) {
        flow.to_mac = *parsed;
      } else {
        r.refuse("to_mac", "a unicast MAC address \"aa:bb:cc:dd:ee:ff\"");
      }
    }
    if (auto ip = r.string("to_ip", true)) {
      if (auto address = parse_ipv4(*ip)) {
        flow.to_ip = *address;
      } else {
        r.refuse("to_ip", "an IPv4 address \"10.0.0.2\"");
      }
    }
    flow.to = r.string("to").value_or(flow.to_mac.to_string());
    flow.pyrrha_path = read_pyrrha_path(r);
    const std::string pattern = r.choice("pattern", {"constant", "on-off"}).value_or("constant");
    lab::read_flow_shape(r, pattern, out.transport, flow.spec);
    r.reject_unknown_keys();
    out.flows.push_back(std::move(flow));
  });
}

void read_receives(TableReader& root, HostProgramConfig& out) {
  std::set<int64_t> own;
  for (const HostFlow& flow : out.flows) own.insert(flow.spec.id);
  std::set<int64_t> ids;
  root.each_table("receive", [&](TableReader& r, size_t) {
    HostReceive receive;
    if (auto id = r.integer("id", 0, kMaxHostFlowIds - 1, true)) {
      receive.id = static_cast<uint32_t>(*id);
      if (*id >= static_cast<int64_t>(out.flow_ids))
        r.refuse("id", fmt::format("an id below [host] flow_ids ({})", out.flow_ids));
      else if (own.count(*id))
        r.refuse("id",
                 "the id of a flow another host sends here, not one of this host's [[flows]]");
      else if (!ids.insert(*id).second)
        r.refuse("id", "an id no other [[receive]] has");
    }
    constexpr std::string_view kAnswered[] = {"window", "dcqcn", "timely"};
    if (auto t = r.choice("transport", kAnswered)) receive.transport = *lab::transport_named(*t);
    if (!r.has("transport"))
      r.refuse("transport", "the sender's transport: \"window\", \"dcqcn\" or \"timely\"", "none");
    receive.from = r.string("from").value_or("");
    r.reject_unknown_keys();
    out.receives.push_back(std::move(receive));
  });
}

}  // namespace

std::optional<uint32_t> parse_ipv4(std::string_view text) {
  in_addr address{};
  if (inet_pton(AF_INET, std::string(text).c_str(), &address) != 1) return std::nullopt;
  return ntohl(address.s_addr);
}

std::string ipv4_text(uint32_t address) {
  return fmt::format("{}.{}.{}.{}", address >> 24, (address >> 16) & 0xff, (address >> 8) & 0xff,
                     address & 0xff);
}

HostProgramConfig parse_host_program_config(std::string_view text, const std::string& file,
                                            const config::PortRules& rules) {
  const toml::table root = config::parse_toml_text(text, file);
  HostProgramConfig out;
  out.file = file;
  ConfigProblems problems(file);
  TableReader reader(root, "", problems);
  read_host_section(reader, out);
  out.transport = lab::read_transport_settings(reader, lab::kMaxFlowDurationNs);
  read_flows(reader, out);
  read_receives(reader, out);
  for (std::string_view section : kSwitchOnlySections)
    if (const toml::node* given = root.get(section))
      problems.expected(given->source(), section, "nothing: a host forwards nothing",
                        config::describe(*given));
  // The rest is an fcswitch config for the host's one port.
  constexpr std::string_view kHostSections[] = {"host", "flows", "transport", "receive"};
  std::vector<std::string> messages;
  try {
    out.node = config::read_switch_config(root, file, kHostSections, rules);
    if (const toml::array* ports = root.get_as<toml::array>("ports"); ports && ports->size() > 1)
      problems.expected(ports->get(1)->source(), "ports[1]",
                        "exactly one [[ports]]: the host's NIC", "a second one");
  } catch (const config::ConfigError& error) {
    messages = error.problems();
  }
  // The queue a flow waits in: what the host's classifier makes of its DSCP (as the lab's).
  if (messages.empty()) {
    for (HostFlow& flow : out.flows)
      flow.spec.priority = out.node.priority_maps.dscp_to_priority[flow.spec.dscp];
    check_pyrrha(root, out, problems);
  }
  for (std::string& p : problems.take()) messages.push_back(std::move(p));
  if (!messages.empty()) throw config::ConfigError(std::move(messages));
  return out;
}

HostProgramConfig load_host_program_config(const std::string& path,
                                           const config::PortRules& rules) {
  return parse_host_program_config(config::read_text_file(path), path, rules);
}

}  // namespace fcswitch::host

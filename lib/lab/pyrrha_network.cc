#include "lab/pyrrha_network.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "config/config_error.h"
#include "lab/lab_path_oracle.h"
#include "scenario/scenario_file.h"

namespace fcswitch::lab {

namespace {

// The lab's oracle for switch `sw`, with what it predicts from: the scenario's routing and its
// switches' own routes, owned here (LabPathIndex refers to the routing, so this never moves).
class NetworkPathOracle final : public PyrrhaPathOracle {
 public:
  NetworkPathOracle(LabRouting routing, const std::vector<LabNode>& nodes, int sw)
      : routing_(std::move(routing)),
        index_(std::make_shared<LabPathIndex>(routing_)),
        oracle_(index_, sw) {
    std::vector<std::vector<config::FibEntry>> static_fib;
    for (const LabNode& node : nodes) static_fib.push_back(node.static_fib);
    index_->refresh(routing_.initial, static_fib);
  }
  NetworkPathOracle(const NetworkPathOracle&) = delete;
  NetworkPathOracle& operator=(const NetworkPathOracle&) = delete;

  size_t onward_path(int egress, const wire::MacAddress& dst, const topology::FiveTuple& tuple,
                     std::span<pyrrha::PathHop> out) const override {
    return oracle_.onward_path(egress, dst, tuple, out);
  }
  bool faces_host(int port) const override { return oracle_.faces_host(port); }

 private:
  LabRouting routing_;
  std::shared_ptr<LabPathIndex> index_;
  LabPathOracle oracle_;
};

// "a, b, c", the first `shown` of `names` and how many there are past them.
std::string listed(const std::vector<std::string>& names, size_t shown = 12) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < shown; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > shown) text += fmt::format(", … {} in all", names.size());
  return text;
}

LabScenario load_network(const config::PyrrhaNetwork& network) {
  const auto refused = [&](std::vector<std::string> why) {
    std::vector<std::string> problems{fmt::format(
        "{}: pyrrha.network: expected a lab scenario describing the network, found \"{}\", "
        "which was refused:",
        network.file_place, network.file)};
    for (std::string& line : why) problems.push_back("  " + std::move(line));
    return config::ConfigError(std::move(problems));
  };
  try {
    return load_lab_scenario(network.file, {});
  } catch (const config::ConfigError& error) {
    throw refused(error.problems());
  } catch (const std::exception& error) {
    throw refused({error.what()});
  }
}

}  // namespace

std::shared_ptr<const PyrrhaPathOracle> take_pyrrha_network(config::SwitchConfig& config) {
  const config::PyrrhaNetwork& network = *config.pyrrha->network;
  LabScenario scenario = load_network(network);
  const std::vector<LabNode>& nodes = scenario.nodes;
  const auto node = std::find_if(nodes.begin(), nodes.end(), [&](const LabNode& n) {
    return !n.host && n.name == network.node;
  });
  if (node == nodes.end()) {
    std::vector<std::string> switches;
    for (const LabNode& n : nodes)
      if (!n.host) switches.push_back(n.name);
    throw config::ConfigError(
        {fmt::format("{}: pyrrha.node: expected a switch of {} ({}), found "
                     "\"{}\"",
                     network.node_place, network.file, listed(switches), network.node)});
  }
  const int sw = scenario.routing.topology_switch[static_cast<size_t>(node - nodes.begin())];
  if (!scenario.routing.initial || sw < 0)
    throw config::ConfigError({fmt::format(
        "{}: pyrrha.network: expected a network whose routes predict paths ([topology] "
        "routing = \"shortest\" or \"updown\"), found static routing in {}",
        network.file_place, network.file)});

  std::vector<std::string> problems;
  // The FIB's entries and Pyrrha's roots name ports by index: the same ports, in one order.
  std::vector<std::string> mine, theirs;
  for (const auto& port : config.ports) mine.push_back(port.name);
  for (const auto& port : node->config.ports) theirs.push_back(port.name);
  if (mine != theirs)
    problems.push_back(fmt::format(
        "{}: pyrrha.node: expected [[ports]] named as {}'s ports in {}, in their order ({}), "
        "found ({})",
        network.node_place, network.node, network.file, listed(theirs), listed(mine)));
  if (!config.fib.empty())
    problems.push_back(fmt::format(
        "{}: pyrrha.network: expected no [[fib]] beside it (the switch forwards by the "
        "network's routes, which the paths are predicted from), found {} [[fib]] entries",
        network.file_place, config.fib.size()));
  // Its seed is the node's too: the one its neighbours' predictions of it hash with.
  if (config.ecmp_seed != 0 && config.ecmp_seed != node->config.ecmp_seed)
    problems.push_back(fmt::format(
        "{}: pyrrha.network: expected no [switch] ecmp_seed beside it (the switch hashes with "
        "its node's, {}, which the other switches predict it with), found {}",
        network.file_place, node->config.ecmp_seed, config.ecmp_seed));
  if (!problems.empty()) throw config::ConfigError(std::move(problems));

  config.fib = node->config.fib;
  config.fib_entries = std::max(config.fib_entries, node->config.fib_entries);
  config.ecmp_seed = node->config.ecmp_seed;
  config.pyrrha->switch_id = static_cast<uint32_t>(sw);  // Pyrrha §4.1: as the lab numbers roots
  return std::make_shared<NetworkPathOracle>(std::move(scenario.routing), nodes, sw);
}

}  // namespace fcswitch::lab

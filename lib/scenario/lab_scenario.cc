// LabScenario's own functions (its links' far ends, a port's name) and the FIB helpers the
// scenario's route events and the lab's rerouting share.
#include "scenario/lab_scenario.h"

#include <fmt/format.h>

#include <string>
#include <unordered_set>
#include <vector>

namespace fcswitch::lab {

std::unordered_set<uint64_t> fib_macs(const std::vector<config::FibEntry>& entries) {
  std::unordered_set<uint64_t> macs;
  for (const config::FibEntry& e : entries) macs.insert(e.mac.value);
  return macs;
}

void replace_static_routes(std::vector<config::FibEntry>& mine,
                           const std::vector<config::FibEntry>& routes) {
  const auto replaced = fib_macs(routes);
  std::erase_if(mine, [&](const config::FibEntry& e) { return replaced.count(e.mac.value); });
  mine.insert(mine.end(), routes.begin(), routes.end());
}

std::vector<std::vector<PortRef>> LabScenario::peers() const {
  std::vector<std::vector<PortRef>> out(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) out[n].resize(nodes[n].config.ports.size());
  for (const LabLinkSpec& link : links) {
    out[link.a.node][link.a.port] = link.b;
    out[link.b.node][link.b.port] = link.a;
  }
  return out;
}

std::string LabScenario::port_name(PortRef port) const {
  const LabNode& node = nodes[port.node];
  if (node.host) return node.name;
  return fmt::format("{}:{}", node.name, node.config.ports[port.port].name);
}

}  // namespace fcswitch::lab

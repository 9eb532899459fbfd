#pragma once
// Whether a scenario's routes have a cyclic buffer dependency, as lab/routing_cbd.h finds it:
// summary.json's `cbd`.

#include <optional>
#include <string>
#include <vector>

namespace fcswitch::lab {

struct RoutingCbd {
  bool present = false;
  int edges = 0;                          // dependencies between switch ingresses
  std::vector<std::string> cycle;         // one shortest cycle, in dependency order
  std::vector<std::string> cyclic_links;  // every link on some cycle, sorted
};

// "cbd: yes (3 links on cycles; e.g. S1:L3 → L3:S2 → …)", "cbd: no", or "cbd: not computed
// (static routing)": the line fclab --check prints and plan.py reads.
std::string cbd_line(const std::optional<RoutingCbd>& cbd);

}  // namespace fcswitch::lab

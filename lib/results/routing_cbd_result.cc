#include "results/routing_cbd_result.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fcswitch::lab {

std::string cbd_line(const std::optional<RoutingCbd>& cbd) {
  if (!cbd) return "cbd: not computed (static routing)";
  if (!cbd->present) return fmt::format("cbd: no ({} dependencies, no cycle)", cbd->edges);
  return fmt::format("cbd: yes ({} links on cycles; e.g. {} → {})", cbd->cyclic_links.size(),
                     fmt::join(cbd->cycle, " → "), cbd->cycle.front());
}

}  // namespace fcswitch::lab

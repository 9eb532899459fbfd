#include "lab/switch_results.h"

#include "node/pyrrha_switch_counters.h"

namespace fcswitch::lab {

std::vector<SwitchResult> switch_results(
    const std::vector<std::pair<std::string, const SwitchNode*>>& switches) {
  std::vector<SwitchResult> out;
  for (const auto& [name, node] : switches) {
    const auto& settings = node->config().pyrrha;
    if (!settings || !node->fwd().pyrrha()) continue;
    PyrrhaResult pyrrha{settings->priority, settings->switch_id, {}};
    pyrrha_switch_counters(*node, PyrrhaReader::kAnyThread,
                           [&](const PyrrhaSwitchCounter& row, uint64_t value) {
                             pyrrha.rows.emplace_back(&row, value);
                           });
    out.push_back({name, std::move(pyrrha)});
  }
  return out;
}

}  // namespace fcswitch::lab

#pragma once
// A lab scenario read from its TOML file or text (scenario/lab_scenario.h has its types).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

// Reads and validates `path` with the `--set key=value` overrides applied. Throws
// config::ConfigError with every problem found. The overrides from `sweep_from` on are a
// --sweep's value (fclab's runs), and named so in messages about them.
LabScenario load_lab_scenario(const std::string& path, const std::vector<std::string>& overrides,
                              size_t sweep_from = SIZE_MAX);
LabScenario parse_lab_scenario(std::string_view text, const std::string& file,
                               const std::vector<std::string>& overrides,
                               size_t sweep_from = SIZE_MAX);

}  // namespace fcswitch::lab

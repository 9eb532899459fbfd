#pragma once
// What a lab run leaves behind: summary.json (deterministic for a virtual-clock run: nothing
// from the wall clock goes in), a one-screen summary for stdout, and the verdict table of a
// sweep (one row per run: tools/demo.sh prints it for the four GFC-ring runs).

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/lab_result.h"

namespace fcswitch::lab {

nlohmann::ordered_json summary_json(const LabResult& result);
void write_summary(const LabResult& result, const std::string& path);
std::string human_summary(const LabResult& result);
// `runs`: (label, result) in the order run.
std::string verdict_table(const std::vector<std::pair<std::string, LabResult>>& runs);

}  // namespace fcswitch::lab

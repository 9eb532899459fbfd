#pragma once
// What the scenario tests (tests/unit/scenario_test.cc) and the lab's runs of it
// (tests/dpdk/lab_test.cc) share: a small scenario and how a refusal reads.

#include <string>
#include <vector>

#include "config/config_error.h"
#include "scenario/scenario_file.h"

namespace fcswitch::lab::scenario_texts {

// One switch, four hosts: an incast, a sized flow at a set rate, an on-off flow.
inline constexpr char kStar[] = R"([lab]
duration = "20ms"
[switch]
lossless_priorities = [3]
mac_learning = false
[buffer]
lossless_ingress = "200KB"
[flow_control]
engine = "pfc"
[flow_control.pfc]
xoff = "150KB"
xon = "147KB"
[[hosts]]
name = "A"
[[hosts]]
name = "B"
[[hosts]]
name = "C"
[[hosts]]
name = "D"
[[switches]]
name = "S1"
ports = [{ name = "a" }, { name = "b" }, { name = "c" }, { name = "d" }]
routes = { A = "a", B = "b", C = "c", D = "d" }
[[links]]
a = "A"
b = "S1:a"
delay = "1us"
[[links]]
a = "B"
b = "S1:b"
delay = "1us"
[[links]]
a = "C"
b = "S1:c"
delay = "1us"
[[links]]
a = "D"
b = "S1:d"
delay = "1us"
[[flows]]
pattern = "incast"
from = ["A", "B"]
to = "C"
priority = 3
[[flows]]
from = "C"
to = "A"
priority = 3
size = "1MB"
rate = "1Gbps"
start = "1ms"
[[flows]]
from = "D"
to = "B"
priority = 3
pattern = "on-off"
on = "1ms"
off = "1ms"
)";

// The problems a scenario is refused with ("accepted" when it is not refused).
inline std::vector<std::string> problems_of(const std::string& text,
                                            const std::vector<std::string>& sets = {}) {
  try {
    parse_lab_scenario(text, "bad.toml", sets);
  } catch (const config::ConfigError& e) {
    return e.problems();
  }
  return {"accepted"};
}

}  // namespace fcswitch::lab::scenario_texts

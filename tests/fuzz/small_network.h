#pragma once
// Shared by the scenario fuzzers. A generated network is routed while it is read (every
// switch to every host): `fat-tree:64` (393 216 ports) is a legitimate scenario that takes
// seconds, which the fuzzer would report as a hang. The spec's limits are tested elsewhere
// (topology_spec_test, LabScenario's memory refusal); here networks stay small.

#include <cstdint>
#include <string>

#include <toml++/toml.h>

namespace fcswitch::fuzz {

// True when the scenario's topology spec (if any) has no number above 16.
inline bool small_network(const toml::table& parsed) {
  const auto spec = parsed["topology"]["spec"].value<std::string>();
  if (!spec) return true;
  uint64_t number = 0;
  for (char c : *spec + ",") {
    if (c >= '0' && c <= '9') {
      number = number * 10 + static_cast<uint64_t>(c - '0');
      if (number > 16) return false;
    } else {
      number = 0;
    }
  }
  return true;
}

inline bool small_network(const std::string& text) {
  try {
    return small_network(toml::parse(text));
  } catch (const toml::parse_error&) {
    return true;  // the reader refuses it
  }
}

}  // namespace fcswitch::fuzz

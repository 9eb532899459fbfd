// libFuzzer target: fclab's scenario reader on arbitrary text (its [lab], [topology],
// [[switches]]/[[hosts]]/[[links]]/[[flows]]/[[events]] sections and each node's fcswitch
// config, merged). A scenario is either read or refused with ConfigError (file:line:column,
// key, expected, found); any other exception, a crash or a sanitizer report is a bug. Seeded
// with every scenario in config/lab/ and tests/lab/ (tests/fuzz/run.sh). No EAL: reading a
// scenario builds nothing.

#include <cstddef>
#include <cstdint>
#include <string>

#include <toml++/toml.h>

#include "config/config_error.h"
#include "scenario/scenario_file.h"

namespace {

// A generated network is routed while it is read (every switch to every host): `fat-tree:64`
// (393 216 ports, under the spec's limit) is a legitimate scenario that takes seconds, which
// the fuzzer would report as a hang. The spec's limits are tested elsewhere
// (topology_spec_test); here networks stay small. True when the spec (if any) has no number
// above 16.
bool small_network(const std::string& text) {
  toml::table parsed;
  try {
    parsed = toml::parse(text);
  } catch (const toml::parse_error&) {
    return true;  // the reader refuses it
  }
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (!small_network(text)) return -1;  // not added to the corpus
  try {
    (void)fcswitch::lab::parse_lab_scenario(text, "fuzz.toml", {});
  } catch (const fcswitch::config::ConfigError&) {
  }
  return 0;
}

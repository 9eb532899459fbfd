// libFuzzer target: fclab's scenario reader on arbitrary text (its [lab], [topology],
// [[switches]]/[[hosts]]/[[links]]/[[flows]]/[[events]] sections and each node's fcswitch
// config, merged). A scenario is either read or refused with ConfigError (file:line:column,
// key, expected, found); any other exception, a crash or a sanitizer report is a bug. Seeded
// with every scenario in config/lab/ and tests/lab/ (tests/fuzz/run.sh). No EAL: reading a
// scenario builds nothing.

#include <cstddef>
#include <cstdint>
#include <string>

#include "config/config_error.h"
#include "scenario/scenario_file.h"
#include "small_network.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (!fcswitch::fuzz::small_network(text)) return -1;  // not added to the corpus
  try {
    (void)fcswitch::lab::parse_lab_scenario(text, "fuzz.toml", {});
  } catch (const fcswitch::config::ConfigError&) {
  }
  return 0;
}

// libFuzzer target: fcswitch's config reader on arbitrary text. A config is either read or
// refused with ConfigError (file:line:column, key, expected, found); any other exception, a
// crash or a sanitizer report is a bug. Seeded with every config in config/ and
// tests/configs/bad/ (tests/fuzz/run.sh).

#include <cstddef>
#include <cstdint>
#include <string>

#include "config/config_error.h"
#include "config/switch_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)fcswitch::config::parse_switch_config(text, "fuzz.toml");
  } catch (const fcswitch::config::ConfigError&) {
  }
  return 0;
}

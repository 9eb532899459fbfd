#pragma once
// Parses TOML text, or throws ConfigError with one located line
// ("FILE:LINE:COLUMN: not valid TOML: …"): the first step of every config reader.

#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace fcswitch::config {

toml::table parse_toml_text(std::string_view text, const std::string& file);

}  // namespace fcswitch::config

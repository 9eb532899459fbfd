#include "config/toml_text.h"

#include <fmt/format.h>

#include "config/config_error.h"

namespace fcswitch::config {

toml::table parse_toml_text(std::string_view text, const std::string& file) {
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    throw ConfigError({fmt::format("{}:{}:{}: not valid TOML: {}", file, where.line, where.column,
                                   error.description())});
  }
}

}  // namespace fcswitch::config

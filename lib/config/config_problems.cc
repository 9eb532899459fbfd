#include "config/config_problems.h"

#include <fmt/format.h>

namespace fcswitch::config {

std::string ConfigProblems::place(const toml::source_region& where) const {
  return fmt::format("{}:{}:{}", file_, where.begin.line, where.begin.column);
}

void ConfigProblems::expected(const toml::source_region& where, std::string_view key,
                              std::string_view what, std::string_view found) {
  problems_.push_back(fmt::format("{}: {}: expected {}, found {}", place(where), key, what, found));
}

void ConfigProblems::note(const toml::source_region& where, std::string_view key,
                          std::string_view message) {
  problems_.push_back(fmt::format("{}: {}: {}", place(where), key, message));
}

std::string describe(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return fmt::format("string \"{}\"", node.as_string()->get());
    case toml::node_type::integer:
      return fmt::format("integer {}", node.as_integer()->get());
    case toml::node_type::floating_point:
      return fmt::format("float {}", node.as_floating_point()->get());
    case toml::node_type::boolean:
      return fmt::format("boolean {}", node.as_boolean()->get());
    case toml::node_type::array:
      return fmt::format("array of {}", node.as_array()->size());
    case toml::node_type::table:
      return "table";
    default:
      return "a date/time";
  }
}

}  // namespace fcswitch::config

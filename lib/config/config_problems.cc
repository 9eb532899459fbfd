#include "config/config_problems.h"

#include <fmt/format.h>

#include <algorithm>

namespace fcswitch::config {

std::string ConfigProblems::key_at(std::string_view key, const toml::source_position& where) {
  return fmt::format("{}:{}:{}", where.line, where.column, key);
}

void ConfigProblems::add_to(ProblemList& list, const std::string& file,
                            const toml::source_region& where, std::string_view key,
                            std::string message) {
  std::string line = fmt::format("{}: {}", place(file, where), message);
  // Defaults shared by several ports are checked once per port: say each problem once.
  if (!list.lines.insert(line).second) return;
  list.keys_at.insert(key_at(key, where.begin));
  list.items.push_back(Problem{where.begin, std::string(key), std::move(line)});
}

std::string ConfigProblems::place(const std::string& file, const toml::source_region& where) {
  // A value inserted from elsewhere (the lab's --set) carries its own source name.
  const std::string& source = where.path && !where.path->empty() ? *where.path : file;
  return fmt::format("{}:{}:{}", source, where.begin.line, where.begin.column);
}

bool ConfigProblems::has_problem(const toml::source_region& where, std::string_view key) const {
  return problems_.keys_at.count(key_at(key, where.begin)) > 0;
}

void ConfigProblems::expected(const toml::source_region& where, std::string_view key,
                              std::string_view what, std::string_view found) {
  add_to(problems_, file_, where, key, fmt::format("{}: expected {}, found {}", key, what, found));
}

void ConfigProblems::note(const toml::source_region& where, std::string_view key,
                          std::string_view message) {
  add_to(problems_, file_, where, key, fmt::format("{}: {}", key, message));
}

void ConfigProblems::warn(const toml::source_region& where, std::string_view key,
                          std::string_view what, std::string_view found) {
  add_to(warnings_, file_, where, key,
         fmt::format("{}: expected {}, found {} (accepted: the file allows it)", key, what, found));
}

std::vector<std::string> ConfigProblems::sorted(ProblemList& list) {
  std::stable_sort(list.items.begin(), list.items.end(), [](const Problem& a, const Problem& b) {
    return a.where.line != b.where.line ? a.where.line < b.where.line
                                        : a.where.column < b.where.column;
  });
  std::vector<std::string> messages;
  for (auto& p : list.items) messages.push_back(std::move(p.message));
  list = ProblemList{};
  return messages;
}

std::vector<std::string> ConfigProblems::take() {
  return sorted(problems_);
}

std::vector<std::string> ConfigProblems::take_warnings() {
  return sorted(warnings_);
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

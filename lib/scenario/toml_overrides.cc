// deep_merge and apply_override: TOML over TOML, each value keeping its place (in its file, or
// its --set) for the messages about it.
#include "scenario/toml_overrides.h"

#include <fmt/format.h>

#include <functional>
#include <sstream>
#include <utility>

namespace fcswitch::lab {

namespace {

// `from` over `into`, table by table; `from`'s values win. Its nodes are moved, not copied:
// toml++ copies a node without its source place, and a --set value's place names the --set.
// A table set over an array of tables (`--set flows.rate=…`) goes over each element: each
// takes the same table from a parse of its own (`parse_again`, at `path`), which has places;
// without `parse_again`, a copy (no places).
using TomlParse = std::function<toml::table()>;
void deep_merge(toml::table& into, toml::table&& from, const TomlParse& parse_again,
                std::vector<std::string>& path) {
  for (auto&& [key, node] : from) {
    toml::node* mine = into.get(key.str());
    path.emplace_back(key.str());
    if (mine && mine->is_table() && node.is_table()) {
      deep_merge(*mine->as_table(), std::move(*node.as_table()), parse_again, path);
    } else if (mine && mine->is_array_of_tables() && node.is_table()) {
      // A table over an array of tables goes over each (`--set flows.burst=500`: every flow).
      for (toml::node& element : *mine->as_array()) {
        toml::table again = parse_again ? parse_again() : toml::table(*node.as_table());
        toml::node* same = &again;
        if (parse_again)  // the same text parses to the same tables: `path` is there
          for (const std::string& k : path) same = same->as_table()->get(k);
        deep_merge(*element.as_table(), std::move(*same->as_table()), parse_again, path);
      }
    } else {
      into.insert_or_assign(key, std::move(node));
    }
    path.pop_back();
  }
}

}  // namespace

void deep_merge(toml::table& into, toml::table&& from) {
  std::vector<std::string> path;
  deep_merge(into, std::move(from), nullptr, path);
}

void apply_override(toml::table& root, const std::string& assignment,
                    std::vector<std::string>& problems, std::string_view option) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    problems.push_back(
        fmt::format("{} {}: expected key=value, found no '=' after a key", option, assignment));
    return;
  }
  const std::string source = fmt::format("{} {}", option, assignment);
  const auto merge = [&](const std::string& text) {
    std::vector<std::string> path;
    deep_merge(
        root, toml::parse(text, source), [&] { return toml::parse(text, source); }, path);
  };
  try {
    merge(assignment);
    return;
  } catch (const toml::parse_error&) {
  }
  std::ostringstream quoted_value;
  quoted_value << toml::value<std::string>(assignment.substr(eq + 1));  // TOML's quoting
  const std::string quoted = fmt::format("{}={}", assignment.substr(0, eq), quoted_value.str());
  try {
    merge(quoted);
  } catch (const toml::parse_error& error) {
    problems.push_back(fmt::format("{}: {}", source, error.description()));
  }
}

}  // namespace fcswitch::lab

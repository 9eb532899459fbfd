#pragma once
// Collects the problems found while reading one config file, each pinned to a place.

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <toml++/toml.h>

namespace fcswitch::config {

class ConfigProblems {
 public:
  explicit ConfigProblems(std::string file) : file_(std::move(file)) {}

  // "file:line:column: key: expected …, found …"
  void expected(const toml::source_region& where, std::string_view key, std::string_view what,
                std::string_view found);
  // "file:line:column: key: message" for problems that are not a type or range mismatch.
  void note(const toml::source_region& where, std::string_view key, std::string_view message);

  // Like expected(), for a rule the file asked to break on purpose: a warning, not a problem.
  void warn(const toml::source_region& where, std::string_view key, std::string_view what,
            std::string_view found);

  // Whether a problem was already noted for `key` at `where` (a rule checked again, in a
  // wider context, need not be said twice).
  bool has_problem(const toml::source_region& where, std::string_view key) const;

  const std::string& file() const { return file_; }
  // "file:line:column" of `where` (or the source a --set value names) for messages of others.
  std::string place(const toml::source_region& where) const { return place(file_, where); }
  static std::string place(const std::string& file, const toml::source_region& where);
  bool empty() const { return problems_.items.empty(); }
  // The messages in the order of their places in the file.
  std::vector<std::string> take();
  std::vector<std::string> take_warnings();

 private:
  struct Problem {
    toml::source_position where;
    std::string key;
    std::string message;
  };
  // The problems of a list and the lines already in it: each said once, found in constant
  // time (a file of a million unknown keys is read in linear time).
  struct ProblemList {
    std::vector<Problem> items;
    std::unordered_set<std::string> lines;
    std::unordered_set<std::string> keys_at;  // key_at(): what has_problem() asks
  };
  static std::string key_at(std::string_view key, const toml::source_position& where);
  static void add_to(ProblemList& list, const std::string& file, const toml::source_region& where,
                     std::string_view key, std::string message);
  static std::vector<std::string> sorted(ProblemList& list);

  std::string file_;
  ProblemList problems_;
  ProblemList warnings_;
};

// How a value appears in a message: `integer 2000000`, `string "abc"`, `table`.
std::string describe(const toml::node& node);

}  // namespace fcswitch::config

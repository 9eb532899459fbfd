#pragma once
// Reads the keys of one TOML table with types and ranges checked, and reports every key it
// was not asked for as unknown. Each problem names the key by its full dotted path
// (`ports[2].rx_descriptors`), where it is, what was expected and what was found.

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "config/config_problems.h"

namespace fcswitch::config {

class TableReader {
 public:
  TableReader(const toml::table& table, std::string path, ConfigProblems& problems);

  // Each returns nullopt (or nullptr) when the key is absent or wrong; a wrong value is
  // recorded as a problem. `required` records an absent key as a problem too.
  std::optional<int64_t> integer(std::string_view key, int64_t min, int64_t max,
                                 bool required = false);
  std::optional<double> number(std::string_view key, double min, double max);
  std::optional<bool> boolean(std::string_view key);
  std::optional<std::string> string(std::string_view key, bool required = false);
  // One of `choices` (shown in the message when the value is not one of them).
  std::optional<std::string> choice(std::string_view key,
                                    std::initializer_list<std::string_view> choices) {
    return choice(key, std::span<const std::string_view>(choices.begin(), choices.size()));
  }
  std::optional<std::string> choice(std::string_view key,
                                    std::span<const std::string_view> choices);
  // An integer, or a string with a unit ("750KB", "1MiB"), in [min, max].
  std::optional<uint64_t> bytes(std::string_view key, uint64_t min, uint64_t max);
  // An integer, or a string with a unit ("10Gbps"), in [min, max].
  std::optional<uint64_t> rate_bps(std::string_view key, uint64_t min, uint64_t max);
  // An integer (ns), or a string with a unit ("90us", "200ms"), in [min, max].
  std::optional<uint64_t> duration_ns(std::string_view key, uint64_t min, uint64_t max);
  const toml::table* table(std::string_view key, bool required = false);
  // The raw value, of any type, for keys that take several (a name or a list of names).
  const toml::node* node(std::string_view key) { return find(key, false, ""); }
  const toml::array* array(std::string_view key, bool required = false);
  // Calls `read(entry, i)` with a reader of each table of the array `key` (an array of tables,
  // `[[key]]`), whose path is `key[i]`; an element that is not a table is refused.
  void each_table(std::string_view key,
                  const std::function<void(TableReader& entry, size_t index)>& read);

  // Records that the value of `key`, read above and of the right type, is not what was
  // `expected` (a bad MAC, an unknown port name, ...); "found nothing" when it is absent.
  void refuse(std::string_view key, std::string_view expected);
  // The same for a rule between values: `found` says what broke it. Pinned to the key, or to
  // the table when the key is absent (a default broke the rule).
  void refuse(std::string_view key, std::string_view expected, std::string_view found);
  // The same rule broken on purpose: a warning pinned to the key.
  void warn(std::string_view key, std::string_view expected, std::string_view found);
  bool has(std::string_view key) const { return table_.contains(key); }

  // Records each key of the table that no accessor above asked for.
  void reject_unknown_keys();

  std::string key_path(std::string_view key) const;
  const toml::table& raw() const { return table_; }
  ConfigProblems& problems() { return problems_; }

 private:
  const toml::node* find(std::string_view key, bool required, std::string_view expected);

  const toml::table& table_;
  std::string path_;
  ConfigProblems& problems_;
  std::set<std::string, std::less<>> known_;
};

}  // namespace fcswitch::config

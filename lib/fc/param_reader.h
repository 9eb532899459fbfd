#pragma once
// How an engine reads its own configuration keys without knowing the file format: the
// config layer implements this over TOML (and over several tables, switch-wide defaults
// under per-port and per-priority overrides). Each getter returns nullopt when the key is
// absent or wrong; a wrong value has already been reported with its place in the file.

#include <cstdint>
#include <optional>
#include <string_view>

namespace fcswitch::fc {

class ParamReader {
 public:
  virtual ~ParamReader() = default;
  virtual std::optional<uint64_t> bytes(std::string_view key, uint64_t min, uint64_t max) = 0;
  virtual std::optional<int64_t> integer(std::string_view key, int64_t min, int64_t max) = 0;
  virtual std::optional<uint64_t> duration_ns(std::string_view key, uint64_t min, uint64_t max) = 0;
  virtual std::optional<bool> boolean(std::string_view key) = 0;
  // A rule between values is broken: `key` was expected to be `expected` and is `found`.
  virtual void refuse(std::string_view key, std::string_view expected, std::string_view found) = 0;
  // The same, where the configuration asked to go ahead anyway: reported, not refused.
  virtual void warn(std::string_view key, std::string_view expected, std::string_view found) = 0;
};

}  // namespace fcswitch::fc

#pragma once
// Reads a whole configuration file, or says in one line why not: a directory where a file was
// meant (a common slip: the folder of a scenario), a missing file, no permission, something
// that is not a regular file (a FIFO, /dev/zero: reading it may never end), or a file larger
// than any config needs.

#include <cstdint>
#include <optional>
#include <string>

namespace fcswitch::config {

// The largest config or scenario read: the largest we ship is tens of KB.
inline constexpr uint64_t kMaxConfigFileBytes = uint64_t{64} << 20;

// Why `path` cannot be read as a file (e.g. "is a directory, not a TOML file"); nullopt if it can.
std::optional<std::string> unreadable_file_reason(const std::string& path);
// Its contents; throws ConfigError("PATH: REASON") when it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace fcswitch::config

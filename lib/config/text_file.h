#pragma once
// Reads a whole configuration file, or says in one line why not: a directory where a file was
// meant (a common slip: the folder of a scenario), a missing file, no permission.

#include <optional>
#include <string>

namespace fcswitch::config {

// Why `path` cannot be read as a file (e.g. "is a directory, not a TOML file"); nullopt if it can.
std::optional<std::string> unreadable_file_reason(const std::string& path);
// Its contents; throws ConfigError("PATH: REASON") when it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace fcswitch::config

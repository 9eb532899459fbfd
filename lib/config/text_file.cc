#include "config/text_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/config_error.h"

namespace fcswitch::config {

std::optional<std::string> unreadable_file_reason(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    return "is a directory, not a TOML file (name the file in it)";
  std::ifstream in(path);
  if (!in) return fmt::format("cannot be read ({})", std::strerror(errno));
  return std::nullopt;
}

std::string read_text_file(const std::string& path) {
  if (auto reason = unreadable_file_reason(path))
    throw ConfigError({fmt::format("{}: {}", path, *reason)});
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace fcswitch::config

#include "config/text_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "config/config_error.h"

namespace fcswitch::config {

namespace {

// What a path that is not a regular file is (a config is read whole: a FIFO with no writer
// would block for ever, /dev/zero never end).
const char* kind_of(std::filesystem::file_type type) {
  switch (type) {
    case std::filesystem::file_type::fifo:
      return "a FIFO";
    case std::filesystem::file_type::character:
      return "a character device";
    case std::filesystem::file_type::block:
      return "a block device";
    case std::filesystem::file_type::socket:
      return "a socket";
    default:
      return "not a regular file";
  }
}

std::string too_large(uint64_t bytes) {
  return fmt::format("is {} bytes, more than the {} MiB a config may be", bytes,
                     kMaxConfigFileBytes >> 20);
}

}  // namespace

std::optional<std::string> unreadable_file_reason(const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (std::filesystem::is_directory(status))
    return "is a directory, not a TOML file (name the file in it)";
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_regular_file(status))
      return fmt::format("is {}, not a regular file (a config is read whole)",
                         kind_of(status.type()));
    const uint64_t bytes = std::filesystem::file_size(path, error);
    if (!error && bytes > kMaxConfigFileBytes) return too_large(bytes);
  }
  std::ifstream in(path);
  if (!in) return fmt::format("cannot be read ({})", std::strerror(errno));
  return std::nullopt;
}

std::string read_text_file(const std::string& path) {
  if (auto reason = unreadable_file_reason(path))
    throw ConfigError({fmt::format("{}: {}", path, *reason)});
  std::ifstream in(path, std::ios::binary);
  // In chunks, at most one byte past the limit: a file that grew since it was looked at is
  // refused too.
  std::string text;
  char chunk[1 << 16];
  while (in && text.size() <= kMaxConfigFileBytes) {
    in.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<size_t>(in.gcount()));
  }
  if (text.size() > kMaxConfigFileBytes)
    throw ConfigError({fmt::format("{}: {}", path, too_large(text.size()))});
  return text;
}

}  // namespace fcswitch::config

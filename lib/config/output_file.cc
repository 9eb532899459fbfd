#include "config/output_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace fcswitch::config {

std::string file_unwritable_reason(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (path.empty()) return "an empty name";
  if (fs::is_directory(path, error)) return "is a directory";
  if (fs::exists(path, error)) return ::access(path.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
  const fs::path parent = fs::absolute(path, error).parent_path();
  if (!fs::is_directory(parent, error))
    return "its directory " + parent.string() + " does not exist";
  if (::access(parent.c_str(), W_OK | X_OK) != 0)
    return "its directory " + parent.string() + ": " + std::strerror(errno);
  return "";
}

}  // namespace fcswitch::config

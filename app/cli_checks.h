#pragma once
// Command-line values the apps read by one rule: times are finite numbers in a range (NaN, -1
// and 1e308 used to pass, each meaning "no limit"), log levels are spdlog's names (a bogus
// one used to turn logging off), files written at the end writable before the start.

#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace fcswitch::cli {

// Why a program could not write its results to `path`, a file it creates or replaces at the
// end of a run; empty if it can. Checked before the run starts: a report that cannot be
// written used to be lost without a word, after the run.
inline std::string file_unwritable_reason(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::is_directory(path, error)) return "is a directory";
  if (fs::exists(path, error)) return ::access(path.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
  const fs::path parent = fs::absolute(path, error).parent_path();
  if (!fs::is_directory(parent, error))
    return "its directory " + parent.string() + " does not exist";
  if (::access(parent.c_str(), W_OK | X_OK) != 0)
    return "its directory " + parent.string() + ": " + std::strerror(errno);
  return "";
}

// A command-line option naming such a file.
inline CLI::Validator writable_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        const std::string reason = file_unwritable_reason(path);
        return reason.empty() ? "" : "cannot write " + path + ": " + reason;
      },
      "FILE");
}

inline CLI::Validator time_in(double max, const std::string& unit) {
  return CLI::Validator(
      [max, unit](std::string& text) -> std::string {
        double value = 0;
        size_t used = 0;
        try {
          value = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size())
          return "expected a number of " + unit + ", found " + text;
        if (!(value >= 0 && value <= max))
          return "expected " + unit + " in [0, " + CLI::detail::to_string(max) + "], found " + text;
        return {};
      },
      unit);
}

inline const std::vector<std::string> kLogLevels = {"trace", "debug",    "info", "warn",
                                                    "error", "critical", "off"};

}  // namespace fcswitch::cli

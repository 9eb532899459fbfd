#pragma once
// Command-line values the apps read by one rule: times are finite numbers in a range (NaN, -1
// and 1e308 used to pass, each meaning "no limit"), log levels are spdlog's names (a bogus
// one used to turn logging off), files written at the end writable before the start.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "config/output_file.h"

namespace fcswitch::cli {

// A command-line option naming such a file.
inline CLI::Validator writable_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        const std::string reason = fcswitch::config::file_unwritable_reason(path);
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

#pragma once
// Each file in a directory of bad configs names, in its leading "# expect:" lines, every
// problem it must be refused with, verbatim: file:line:column, key, expected, found. Shared by
// fcswitch's (tests/configs/bad) and fchost's (tests/configs/bad_host).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "config/config_error.h"

namespace fcswitch::testing {

inline std::vector<std::string> expected_problems(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> expected;
  std::string line;
  while (std::getline(in, line) && line.rfind("# expect: ", 0) == 0)
    expected.push_back(line.substr(10));
  return expected;
}

// `parse` reads the text as the named file; each file must be refused with its problems.
// Returns how many files there were.
inline int check_bad_config_files(
    const std::filesystem::path& dir,
    const std::function<void(const std::string& text, const std::string& file)>& parse) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    const auto expected = expected_problems(entry.path());
    EXPECT_FALSE(expected.empty()) << entry.path() << " has no # expect: line";
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    try {
      parse(text.str(), entry.path().filename().string());
      ADD_FAILURE() << entry.path() << " was accepted";
    } catch (const config::ConfigError& error) {
      EXPECT_EQ(error.problems(), expected) << entry.path();
    }
  }
  return files;
}

}  // namespace fcswitch::testing

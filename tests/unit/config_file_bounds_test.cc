// Reading a config is bounded: something that is not a regular file (a FIFO with no writer,
// which blocked for ever; /dev/zero through a symlink, which grew memory without bound) and a
// file larger than any config are refused with the path and why; the problems of a file are
// collected in linear time (a million unknown keys did not finish in 120 s) and printed up to
// a cap, with a count of the rest.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config/config_error.h"
#include "config/switch_config.h"
#include "config/text_file.h"

namespace fcswitch::config {
namespace {

namespace fs = std::filesystem;

class ConfigFileBounds : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fcswitch_bounds_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The one problem load_switch_config refuses `path` with.
  static std::string refusal(const std::string& path) {
    try {
      load_switch_config(path);
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.problems().size(), 1u) << e.what();
      return e.problems().empty() ? "" : e.problems().front();
    }
    ADD_FAILURE() << path << " was accepted";
    return "";
  }

  fs::path dir_;
};

TEST_F(ConfigFileBounds, AFifoIsRefusedWithoutWaitingForAWriter) {
  const std::string fifo = dir_ / "switch.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(refusal(fifo), fifo + ": is a FIFO, not a regular file (a config is read whole)");
}

TEST_F(ConfigFileBounds, ADeviceBehindASymlinkIsRefused) {
  const std::string link = dir_ / "switch.toml";
  fs::create_symlink("/dev/zero", link);
  EXPECT_EQ(refusal(link),
            link + ": is a character device, not a regular file (a config is read whole)");
}

TEST_F(ConfigFileBounds, AFileLargerThanAnyConfigIsRefused) {
  const std::string big = dir_ / "switch.toml";
  std::ofstream(big) << "[switch]\n";
  fs::resize_file(big, kMaxConfigFileBytes + 1);  // sparse: nothing written
  EXPECT_EQ(refusal(big), big + ": is 67108865 bytes, more than the 64 MiB a config may be");
}

TEST_F(ConfigFileBounds, EveryUnknownKeyOfAHugeFileIsCollected) {
  constexpr int kKeys = 100'000;
  const std::string path = dir_ / "switch.toml";
  {
    std::ofstream out(path);
    out << "[switch]\nname = \"s\"\n";
    for (int i = 0; i < kKeys; ++i) out << "unknown_key_" << i << " = 1\n";
  }
  try {
    load_switch_config(path);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    // Every one of them, in the file's order (after the missing [[ports]], at 1:1); what()
    // shows the first ones and the count.
    ASSERT_EQ(e.problems().size(), static_cast<size_t>(kKeys) + 1);
    EXPECT_EQ(e.problems()[1], path + ":3:1: switch.unknown_key_0: unknown key");
    EXPECT_EQ(e.problems().back(), path + ":100002:1: switch.unknown_key_99999: unknown key");
    const std::string what = e.what();
    EXPECT_NE(what.find(fmt::format("more problems ({} in all)", e.problems().size())),
              std::string::npos)
        << what.substr(what.size() - 200);
  }
}

TEST(ConfigErrorText, ShowsTheFirstProblemsAndCountsTheRest) {
  std::vector<std::string> problems;
  for (int i = 0; i < 250; ++i) problems.push_back("f.toml:" + std::to_string(i + 1) + ":1: x");
  const ConfigError error(problems);
  const std::string what = error.what();
  EXPECT_EQ(std::count(what.begin(), what.end(), '\n'),
            static_cast<long>(ConfigError::kShownProblems));
  EXPECT_EQ(what.substr(what.rfind('\n') + 1), "… and 150 more problems (250 in all)");
  EXPECT_EQ(error.problems().size(), 250u);
  // Up to the cap, every line and nothing more.
  const ConfigError few({"a", "b"});
  EXPECT_STREQ(few.what(), "a\nb");
}

}  // namespace
}  // namespace fcswitch::config

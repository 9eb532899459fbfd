#pragma once
// Every test that decodes with tshark needs it the same way: tools/install-deps.sh installs it,
// and a test that does not find it fails saying so (ASSERT_TRUE(tshark_installed())), never
// skipped in silence and never reading an empty decode as a disagreement with our frames.

#include <gtest/gtest.h>

#include <cstdlib>

namespace fcswitch {

inline ::testing::AssertionResult tshark_installed() {
  if (std::system("command -v tshark > /dev/null 2>&1") == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "tshark is not installed (tools/install-deps.sh)";
}

}  // namespace fcswitch

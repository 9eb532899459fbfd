// The TSC rate check at start-up: the reported rate is kept unless CLOCK_MONOTONIC says
// otherwise by more than the tolerance.

#include <gtest/gtest.h>

#include <rte_cycles.h>

#include "dpdk/tsc_calibration.h"

namespace fcswitch::dpdk {
namespace {

TEST(TscCalibration, KeepsTheReportedRateWhenTheClocksAgree) {
  const TscCalibration c = choose_tsc_hz(2'400'000'000, 2'400'900'000, 1e-3);  // 0.0375 %
  EXPECT_EQ(c.chosen_hz, 2'400'000'000u);
  EXPECT_NEAR(c.disagreement, 3.75e-4, 1e-9);
}

TEST(TscCalibration, UsesTheMeasuredRateWhenTheyDisagree) {
  // A VM whose CPUID says 2.4 GHz while the TSC runs at 2.1 GHz.
  EXPECT_EQ(choose_tsc_hz(2'400'000'000, 2'100'000'000, 1e-3).chosen_hz, 2'100'000'000u);
  EXPECT_EQ(choose_tsc_hz(0, 2'100'000'000, 1e-3).chosen_hz, 2'100'000'000u);
}

TEST(TscCalibration, MeasuresThisMachinesTsc) {
  const TscCalibration c = calibrate_tsc(std::chrono::milliseconds(20));
  EXPECT_EQ(c.reported_hz, rte_get_tsc_hz());
  // Whatever the VM says, the TSC runs at a CPU-like rate, and the choice is one of the two.
  EXPECT_GT(c.measured_hz, 100'000'000u);
  EXPECT_LT(c.measured_hz, 10'000'000'000u);
  EXPECT_TRUE(c.chosen_hz == c.reported_hz || c.chosen_hz == c.measured_hz);
}

}  // namespace
}  // namespace fcswitch::dpdk

#pragma once
// The TSC rate DPDK reports (rte_get_tsc_hz) comes from CPUID or a short calibration and can
// be wrong on a virtual machine. Every tick conversion in the datapath — pause quanta, credit
// periods, rate limiter gaps — depends on it, so at start-up we measure the TSC against
// CLOCK_MONOTONIC and use the measured rate when the two disagree.

#include <chrono>
#include <cstdint>

namespace fcswitch::dpdk {

struct TscCalibration {
  uint64_t reported_hz = 0;
  uint64_t measured_hz = 0;
  uint64_t chosen_hz = 0;
  double disagreement = 0;  // |measured − reported| / reported
};

// Which rate to run on: the reported one unless the measurement differs by more than
// `tolerance` (relative), then the measured one.
TscCalibration choose_tsc_hz(uint64_t reported_hz, uint64_t measured_hz, double tolerance);

// Measures the TSC over `window` of CLOCK_MONOTONIC (EAL must be up) and chooses. Logs the
// outcome; a disagreement as a warning.
TscCalibration calibrate_tsc(std::chrono::milliseconds window, double tolerance = 1e-3);

}  // namespace fcswitch::dpdk

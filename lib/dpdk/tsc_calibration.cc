#include "dpdk/tsc_calibration.h"

#include <rte_cycles.h>

#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdint>
#include <ctime>
#include <thread>

namespace fcswitch::dpdk {

namespace {

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// A TSC reading paired with the monotonic time halfway between two clock reads around it.
struct Sample {
  uint64_t ns;
  uint64_t tsc;
};

// The narrowest of a few tries: a thread that loses its CPU between the clock reads (six
// processes on two CPUs do, often) widens the bracket, and half of it is the error. A
// millisecond's error at either end of the 100 ms window is 10 000 ppm of the rate.
Sample sample() {
  Sample best{0, 0};
  uint64_t narrowest = UINT64_MAX;
  for (int i = 0; i < 5; ++i) {
    const uint64_t before = monotonic_ns();
    const uint64_t tsc = rte_rdtsc_precise();
    const uint64_t after = monotonic_ns();
    if (after - before < narrowest) {
      narrowest = after - before;
      best = Sample{before + (after - before) / 2, tsc};
    }
  }
  return best;
}

}  // namespace

TscCalibration choose_tsc_hz(uint64_t reported_hz, uint64_t measured_hz, double tolerance) {
  TscCalibration c{reported_hz, measured_hz, reported_hz, 0};
  if (reported_hz == 0) {
    c.chosen_hz = measured_hz;
    c.disagreement = 1;
    return c;
  }
  c.disagreement = std::abs(static_cast<double>(measured_hz) - static_cast<double>(reported_hz)) /
                   static_cast<double>(reported_hz);
  if (c.disagreement > tolerance && measured_hz) c.chosen_hz = measured_hz;
  return c;
}

TscCalibration calibrate_tsc(std::chrono::milliseconds window, double tolerance) {
  const Sample start = sample();
  std::this_thread::sleep_for(window);  // a measurement interval, not a synchronisation
  const Sample end = sample();
  const auto measured = static_cast<uint64_t>(static_cast<__uint128_t>(end.tsc - start.tsc) *
                                              1'000'000'000ull / (end.ns - start.ns));
  const TscCalibration c = choose_tsc_hz(rte_get_tsc_hz(), measured, tolerance);
  if (c.chosen_hz != c.reported_hz) {
    spdlog::warn(
        "TSC: DPDK reports {} Hz but it ran at {} Hz against CLOCK_MONOTONIC over {} ms "
        "({:.3f} % apart): using the measured rate",
        c.reported_hz, c.measured_hz, window.count(), c.disagreement * 100);
  } else {
    spdlog::info("TSC: {} Hz (measured {} Hz, {:.4f} % apart)", c.reported_hz, c.measured_hz,
                 c.disagreement * 100);
  }
  return c;
}

}  // namespace fcswitch::dpdk

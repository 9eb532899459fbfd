#include "fc/response_time_meter.h"

#include <gtest/gtest.h>

namespace fcswitch::fc {
namespace {

constexpr TickRate kNs{kNsPerSecond};  // a tick is a nanosecond
constexpr uint64_t kQuiet = 5000;

TEST(ResponseTimeMeter, TauIsTheLastArrivalBeforeTheInputWentQuiet) {
  ResponseTimeMeter m(kNs, kQuiet);
  m.on_pause(10'000);
  m.observe(11'000, 10'500);  // frames still arriving
  m.observe(14'000, 13'200);  // the last one, 3.2 µs after the decision
  m.observe(18'000, 13'200);  // 4.8 µs of quiet: not yet
  EXPECT_EQ(m.samples(), 0u);
  m.observe(18'200, 13'200);  // 5 µs: the upstream has stopped
  EXPECT_EQ(m.samples(), 1u);
  EXPECT_EQ(m.max_ns(), 3200u);
  EXPECT_EQ(m.bucket(3), 1u);            // [3, 4) µs
  EXPECT_EQ(m.quantile_ns(0.5), 3200u);  // the bucket's bound, capped at the largest sample
  m.on_resume(30'000, 13'200);           // the XON ends nothing: the sample was taken
  EXPECT_EQ(m.unfinished(), 0u);
}

TEST(ResponseTimeMeter, XonBeforeQuietIsUnfinishedAndNoArrivalIsNoSample) {
  ResponseTimeMeter m(kNs, kQuiet);
  m.on_pause(0);
  m.observe(2'000, 1'900);
  m.on_resume(3'000, 2'900);  // frames kept coming until the XON
  EXPECT_EQ(m.unfinished(), 1u);
  EXPECT_EQ(m.samples(), 0u);
  // A pause when the upstream had already stopped: nothing arrives after it, nothing to time.
  m.on_pause(100'000);
  m.observe(110'000, 2'900);
  m.on_resume(120'000, 2'900);
  EXPECT_EQ(m.samples(), 0u);
  EXPECT_EQ(m.unfinished(), 1u);
}

// Looked at only when something arrives (the lab's TX polls), the meter ends where looking
// all the time would: a frame that came after 5 µs of quiet is not part of the response.
TEST(ResponseTimeMeter, ALateLookEndsItWhereTheInputWentQuiet) {
  ResponseTimeMeter m(kNs, kQuiet);
  m.on_pause(10'000);
  m.observe(11'000, 11'000);
  m.observe(12'500, 12'500);  // quiet from 17.5 µs on
  m.observe(40'000, 40'000);  // the next frame, long after
  EXPECT_EQ(m.samples(), 1u);
  EXPECT_EQ(m.max_ns(), 2'500u);
  // Quiet from the decision on: the frame after it is no response either.
  m.on_pause(100'000);
  m.observe(120'000, 120'000);
  EXPECT_EQ(m.samples(), 1u);
  m.on_resume(130'000, 120'000);
  EXPECT_EQ(m.unfinished(), 0u);
}

TEST(ResponseTimeMeter, QuantilesFromMicrosecondAndPowerOfTwoBuckets) {
  // Quiet longer than the longest τ: one arrival a pause is its whole response.
  constexpr uint64_t kLongQuiet = 1'000'000;
  ResponseTimeMeter m(kNs, kLongQuiet);
  uint64_t t = 0;
  auto sample = [&](uint64_t tau_ns) {
    t += 10'000'000;
    m.on_pause(t);
    m.observe(t + tau_ns + kLongQuiet, t + tau_ns);
  };
  for (int i = 0; i < 98; ++i) sample(84'000);  // 84 µs: bucket [84, 85)
  sample(89'800);
  sample(300'000);  // [256, 512) µs
  EXPECT_EQ(m.samples(), 100u);
  EXPECT_EQ(m.quantile_ns(0.5), 85'000u);
  EXPECT_EQ(m.quantile_ns(0.99), 90'000u);
  EXPECT_EQ(m.quantile_ns(1.0), 300'000u);  // 512 µs capped at the largest sample
  EXPECT_EQ(m.bucket_upper_ns(ResponseTimeMeter::kLinearBuckets + 1), 512'000u);
  EXPECT_EQ(m.sum_ns(), 98 * 84'000u + 89'800u + 300'000u);
}

}  // namespace
}  // namespace fcswitch::fc

// The GFC §5.3 rate limiter: exact long-run rate in ticks, every gap right to the tick,
// rate changes for the next packet, R_r = C means no wait.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "shaping/port_pacer.h"
#include "shaping/rate_limiter.h"

namespace fcswitch::shaping {
namespace {

constexpr uint64_t k10G = 10'000'000'000;

// Ethernet frame lengths without FCS, mixed: minimum, odd sizes, full size, jumbo-ish.
std::vector<uint32_t> mixed_sizes(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<uint32_t> size(40, 1514);
  std::vector<uint32_t> sizes(n);
  for (auto& s : sizes) s = gen() % 8 == 0 ? 9000 : size(gen);
  return sizes;
}

uint64_t floor_ticks(__uint128_t bits, uint64_t hz, uint64_t rate_bps) {
  return static_cast<uint64_t>(bits * hz / rate_bps);
}

struct Case {
  uint64_t hz;
  uint64_t rate_bps;
};

class RateLimiterAccuracy : public testing::TestWithParam<Case> {};

// 10^5 packets polled exactly when the queue opens: the queue opens for the last time at
// ⌊Σ L·hz / R⌋ — no drift at all — and each gap is the exact gap rounded down or up.
TEST_P(RateLimiterAccuracy, ExactLongRunRateAndEveryGapToTheTick) {
  const auto [hz, rate] = GetParam();
  const TickRate ticks{hz};
  const WireFraming framing;
  const RateLimiterProfile profile(kNoLineRate, ticks);
  RateLimiter limiter(profile);
  limiter.set_rate(profile, rate);
  const auto sizes = mixed_sizes(100'000, static_cast<uint32_t>(rate % 1000));
  uint64_t now = 1000;  // not zero: the schedule is relative to the first packet
  const uint64_t first = now;
  __uint128_t bits = 0;
  for (uint32_t size : sizes) {
    ASSERT_TRUE(limiter.may_send(now));
    limiter.on_send(profile, now, size);
    const uint64_t b = framing.wire_bits(size);
    bits += b;
    const uint64_t gap = limiter.next_open_ticks() - now;
    const uint64_t exact_floor = floor_ticks(b, hz, rate);
    ASSERT_TRUE(gap == exact_floor || gap == exact_floor + 1) << gap << " vs " << exact_floor;
    ASSERT_FALSE(limiter.may_send(limiter.next_open_ticks() - 1));
    now = limiter.next_open_ticks();
  }
  EXPECT_EQ(now - first, floor_ticks(bits, hz, rate));
  const double achieved =
      static_cast<double>(bits) * static_cast<double>(hz) / static_cast<double>(now - first);
  EXPECT_NEAR(achieved / static_cast<double>(rate), 1.0, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(
    RatesAndClocks, RateLimiterAccuracy,
    testing::Values(Case{1'000'000'000, 1'000'000}, Case{1'000'000'000, 3'333'333},
                    Case{1'000'000'000, 100'000'000}, Case{1'000'000'000, 2'500'000'000},
                    Case{1'000'000'000, 7'000'000'000}, Case{1'000'000'000, 40'000'000'000},
                    Case{1'000'000'000, 100'000'000'000}, Case{2'394'231'000, 1'000'000},
                    Case{2'394'231'000, 152'587'890},  // 10 Gb/s / 2^6: a GFC stage
                    Case{2'394'231'000, 5'000'000'000}, Case{2'394'231'000, 100'000'000'000},
                    // L·hz above 2^64 for the longer frames: both of schedule_after's divides.
                    Case{uint64_t{1} << 48, 10'000'000'000}));

// A poll that comes late, by up to the catch-up allowance, does not cost rate: the schedule
// is kept, so after 10^5 packets the queue still opens at ⌊Σ L·hz / R⌋.
TEST(RateLimiter, LatePollsWithinCatchUpDoNotDrift) {
  const uint64_t hz = 2'394'231'000, rate = 5'000'000'000, catch_up = 5000;
  const RateLimiterProfile profile(k10G, TickRate{hz}, WireFraming{}, catch_up);
  RateLimiter limiter(profile);
  limiter.set_rate(profile, rate);
  std::mt19937 gen(7);
  std::uniform_int_distribution<uint64_t> lateness(0, catch_up);
  const auto sizes = mixed_sizes(100'000, 3);
  uint64_t now = 50;
  const uint64_t first = now;
  __uint128_t bits = 0;
  for (uint32_t size : sizes) {
    limiter.on_send(profile, now, size);
    bits += WireFraming{}.wire_bits(size);
    now = limiter.next_open_ticks() + lateness(gen);
  }
  EXPECT_EQ(limiter.next_open_ticks() - first, floor_ticks(bits, hz, rate));
}

TEST(RateLimiter, LateBeyondCatchUpRestartsTheSchedule) {
  const RateLimiterProfile profile(k10G, TickRate{}, WireFraming{}, 100);  // ticks are ns
  RateLimiter limiter(profile);
  limiter.set_rate(profile, 1'000'000'000);
  limiter.on_send(profile, 0, 1226);  // (1226 + 24) × 8 = 10000 bits: 10 µs at 1 Gb/s
  EXPECT_EQ(limiter.next_open_ticks(), 10'000u);
  limiter.on_send(profile, 10'050, 1226);  // 50 ns late: kept
  EXPECT_EQ(limiter.next_open_ticks(), 20'000u);
  limiter.on_send(profile, 1'000'000,
                  1226);  // idle for long: restarts 100 ns (catch-up) before now
  EXPECT_EQ(limiter.next_open_ticks(), 1'009'900u);
}

// GFC §5.3: R_c = (C − R_r)/R_r · R_l. At R_r = C/2 the wait after the packet equals its own
// wire time; at R_r = C there is none.
TEST(RateLimiter, WaitIsTheirRcAndNoneAtLineRate) {
  const RateLimiterProfile profile(k10G, TickRate{});
  RateLimiter limiter(profile);
  limiter.set_rate(profile, k10G / 2);
  limiter.on_send(profile, 0, 1226);                    // R_l = 10000 bits / 10 Gb/s = 1000 ns
  EXPECT_EQ(limiter.next_open_ticks(), 1000u + 1000u);  // R_l + R_c
  limiter.set_rate(profile, k10G / 4);
  EXPECT_EQ(limiter.next_open_ticks(), 1000u + 3000u);  // R_c = 3 R_l
  limiter.set_rate(profile, k10G);
  EXPECT_TRUE(limiter.unlimited(profile));
  EXPECT_TRUE(limiter.may_send(0));
  limiter.on_send(profile, 5, 9000);
  EXPECT_TRUE(limiter.may_send(5));
  EXPECT_EQ(limiter.next_open_ticks(), 5u);
}

// A rate change applies to the gap after the last packet, not only to the packet after next.
TEST(RateLimiter, RateChangeTakesEffectForTheNextPacket) {
  const RateLimiterProfile profile(k10G, TickRate{});
  RateLimiter limiter(profile);
  limiter.set_rate(profile, 1'000'000'000);
  limiter.on_send(profile, 100, 1000);  // 8192 bits
  EXPECT_EQ(limiter.next_open_ticks(), 100u + 8192u);
  limiter.set_rate(profile, 5'000'000'000);
  EXPECT_EQ(limiter.next_open_ticks(), 100u + 1638u);  // 1638.4 ns, rounded down
  limiter.set_rate(profile, 0);
  EXPECT_EQ(limiter.next_open_ticks(), kNeverTicks);
  EXPECT_FALSE(limiter.may_send(1'000'000'000));
  limiter.set_rate(profile, 2'000'000'000);
  EXPECT_EQ(limiter.next_open_ticks(), 100u + 4096u);
}

// budget() answers what may_send/on_send would one by one, without moving the schedule; a
// catch-up allowance lets a late poll send several at once.
TEST(RateLimiter, BudgetMatchesOneByOneAndChangesNothing) {
  const uint32_t bytes[] = {1226, 1226, 1226, 1226};  // 10000 bits each: 2000 ns at 5 Gb/s
  const RateLimiterProfile profile(k10G, TickRate{}, WireFraming{}, 5000);
  RateLimiter limiter(profile);
  limiter.set_rate(profile, k10G / 2);
  EXPECT_EQ(limiter.budget(profile, 0, bytes, 4), 1u);  // the first opens the schedule
  limiter.commit(profile, 0, bytes, 1);
  EXPECT_EQ(limiter.next_open_ticks(), 2000u);
  EXPECT_EQ(limiter.budget(profile, 1999, bytes, 4), 0u);
  // 4000 ns late, within the 5000 ns allowance: the schedule is kept, the packets due at 2000,
  // 4000 and 6000 may go now, the one due at 8000 not yet.
  EXPECT_EQ(limiter.budget(profile, 6000, bytes, 4), 3u);
  EXPECT_EQ(limiter.next_open_ticks(), 2000u);  // asking moved nothing
  RateLimiter one_by_one = limiter;
  unsigned sent = 0;
  while (sent < 4 && one_by_one.may_send(6000)) one_by_one.on_send(profile, 6000, bytes[sent++]);
  EXPECT_EQ(sent, 3u);
  limiter.commit(profile, 6000, bytes, 3);
  EXPECT_EQ(limiter.next_open_ticks(), one_by_one.next_open_ticks());
  // At line rate there is no gap: all of them.
  limiter.set_rate(profile, k10G);
  EXPECT_EQ(limiter.budget(profile, 6000, bytes, 4), 4u);
}

// At line rate (GFC stage 0) a burst's commit is one send and the last length: the state it
// leaves is that of sending them one by one, as a later rate change shows (it reschedules
// from the last packet's start and length). Sent first, late and on schedule, with and
// without a catch-up allowance.
TEST(RateLimiter, CommitAtLineRateLeavesWhatOneByOneLeaves) {
  const uint32_t bytes[] = {60, 1514, 9000, 200};
  for (const uint64_t catch_up : {uint64_t{0}, uint64_t{5000}}) {
    const RateLimiterProfile profile(k10G, TickRate{}, WireFraming{}, catch_up);
    RateLimiter burst(profile);
    burst.set_rate(profile, k10G);
    RateLimiter one_by_one = burst;
    for (const uint64_t now : {uint64_t{100}, uint64_t{100}, uint64_t{20'000}}) {
      burst.commit(profile, now, bytes, 4);
      for (uint32_t b : bytes) one_by_one.on_send(profile, now, b);
      ASSERT_EQ(burst.next_open_ticks(), one_by_one.next_open_ticks()) << now;
      RateLimiter slowed = burst, slowed_one_by_one = one_by_one;
      slowed.set_rate(profile, 1'000'000'000);
      slowed_one_by_one.set_rate(profile, 1'000'000'000);
      EXPECT_EQ(slowed.next_open_ticks(), slowed_one_by_one.next_open_ticks()) << now;
      EXPECT_EQ(slowed.next_open_ticks(), now - (now == 20'000 ? catch_up : 0) + 1'792u)
          << "200 bytes: 1792 bits on the wire at 1 Gb/s after the burst's start";
    }
  }
}

TEST(RateLimiter, RateZeroBeforeAnyPacketHoldsTheQueue) {
  const RateLimiterProfile profile(k10G, TickRate{});
  RateLimiter limiter(profile);
  limiter.set_rate(profile, 0);
  EXPECT_FALSE(limiter.may_send(0));
  limiter.set_rate(profile, 1'000'000);
  EXPECT_TRUE(limiter.may_send(0));
}

TEST(WireFraming, PadsShortFramesAndAddsPreambleFcsAndGap) {
  const WireFraming ethernet;
  EXPECT_EQ(ethernet.wire_bits(40), (60u + 24u) * 8u);
  EXPECT_EQ(ethernet.wire_bits(1514), (1514u + 24u) * 8u);
  const WireFraming bare{0, 0};  // a ring link in the lab counts only the bytes
  EXPECT_EQ(bare.wire_bits(40), 320u);
}

TEST(PortPacer, AdmitsInOrderWhileOpen) {
  PortPacer pacer(kNoLineRate, 1'000'000'000, TickRate{}, WireFraming{0, 0});
  const uint32_t burst[4] = {125, 125, 125, 125};  // 1 µs each at 1 Gb/s
  EXPECT_EQ(pacer.admit(0, burst, 4), 1u);
  EXPECT_EQ(pacer.next_open_ticks(), 1000u);
  EXPECT_EQ(pacer.admit(999, burst + 1, 3), 0u);
  EXPECT_EQ(pacer.admit(1000, burst + 1, 3), 1u);
  const PortPacer capped_at_line(k10G, k10G, TickRate{});
  EXPECT_TRUE(capped_at_line.unlimited());
}

}  // namespace
}  // namespace fcswitch::shaping

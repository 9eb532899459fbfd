#include <gtest/gtest.h>

#include <thread>

#include "switch/charge_release_counters.h"
#include "switch/shared_buffer_policy.h"

namespace fcswitch {
namespace {

TEST(SharedBufferPolicy, LosslessAdmitsUpToTheIngressLimitExactly) {
  SharedBufferConfig config;
  config.lossless_ingress_bytes = 10000;
  SharedBufferPolicy policy(config);
  EXPECT_EQ(policy.admit_lossless(9000, 1000), Admission::kAdmit);
  EXPECT_EQ(policy.admit_lossless(9001, 1000), Admission::kLosslessOverflow);
}

// Dynamic threshold with α = 1: a lone queue may grow to half the pool (Q ≤ α(B − Q)).
TEST(SharedBufferPolicy, LossyDynamicThresholdHalvesTheFreePoolForOneQueue) {
  SharedBufferConfig config;
  config.lossy_pool_bytes = 100000;
  config.lossy_alpha_1024 = 1024;
  SharedBufferPolicy policy(config);
  uint64_t queue = 0;
  while (policy.admit_lossy(queue, queue, 1000) == Admission::kAdmit) queue += 1000;
  EXPECT_EQ(queue, 50000u);
  // α = 2: about two thirds (Q + 1000 ≤ 2(B − Q) still holds at Q = 66000).
  config.lossy_alpha_1024 = 2048;
  SharedBufferPolicy twice(config);
  queue = 0;
  while (twice.admit_lossy(queue, queue, 1000) == Admission::kAdmit) queue += 1000;
  EXPECT_EQ(queue, 67000u);
}

TEST(SharedBufferPolicy, LossyNeverExceedsThePool) {
  SharedBufferConfig config;
  config.lossy_pool_bytes = 5000;
  config.lossy_alpha_1024 = 64 * 1024;
  SharedBufferPolicy policy(config);
  EXPECT_EQ(policy.admit_lossy(0, 4500, 600), Admission::kLossyBufferFull);
  EXPECT_EQ(policy.admit_lossy(0, 4400, 600), Admission::kAdmit);
}

TEST(ChargeReleaseCounters, OccupancyIsChargedMinusEveryReleaser) {
  ChargeReleaseCounters c(16, 3);
  c.charge(5, 1500);
  c.charge(5, 64);
  c.charge(6, 100);
  c.release(0, 5, 64);
  c.release(2, 5, 1000);
  EXPECT_EQ(c.value(5), 500u);
  EXPECT_EQ(c.value(6), 100u);
  EXPECT_EQ(c.charged(5), 1564u);
}

// Made with one releaser (a switch whose tasks share a thread), the TX tasks of every port
// release into its one row: each by its own port's index, as with a row each.
TEST(ChargeReleaseCounters, OneRowTakesTheReleasesOfEveryPort) {
  ChargeReleaseCounters c(16, 1);
  c.charge(5, 1500);
  c.charge(5, 64);
  c.release(0, 5, 64);
  c.release(15, 5, 1000);  // the last port's TX
  c.release(7, 6, 0);
  EXPECT_EQ(c.value(5), 500u);
  EXPECT_EQ(c.released(5), 1064u);
  EXPECT_EQ(c.value(6), 0u);
}

// A TX task asks which of its nine queues hold anything in one pass: a bit a slot whose
// charges are not all released, whichever releaser released them.
TEST(ChargeReleaseCounters, NonzeroMaskHasABitPerSlotNotAllReleased) {
  ChargeReleaseCounters c(9, 2);
  EXPECT_EQ(c.nonzero_mask(), 0u);
  c.charge(0, 100);
  c.charge(3, 64);
  c.charge(8, 1500);
  c.release(1, 3, 64);  // all of slot 3's, by the second releaser
  c.release(0, 8, 1000);
  EXPECT_EQ(c.nonzero_mask(), (1u << 0) | (1u << 8));
  c.release(1, 8, 500);
  EXPECT_EQ(c.nonzero_mask(), 1u << 0);
}

// One charger and two releasers on their own threads: at the end the occupancy is exactly
// what was charged and not yet released, with no atomic read-modify-write anywhere.
TEST(ChargeReleaseCounters, SingleWriterRowsAddUpAcrossThreads) {
  ChargeReleaseCounters c(1, 2);
  constexpr int kRounds = 200000;
  std::thread charger([&] {
    for (int i = 0; i < kRounds; ++i) c.charge(0, 3);
  });
  std::thread r0([&] {
    for (int i = 0; i < kRounds; ++i) c.release(0, 0, 1);
  });
  std::thread r1([&] {
    for (int i = 0; i < kRounds; ++i) c.release(1, 0, 1);
  });
  charger.join();
  r0.join();
  r1.join();
  EXPECT_EQ(c.value(0), static_cast<uint64_t>(kRounds));
}

}  // namespace
}  // namespace fcswitch

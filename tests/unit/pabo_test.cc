// PABO (PABO §II): Eq. 4 pinned to hand-computed values (NOTES.md), the bounce decision's
// utilisation, guard and capacities, the shim's fields and round trip through the parser.

#include <gtest/gtest.h>

#include <vector>

#include "pabo/bounce_policy.h"
#include "pabo/bounce_probability.h"
#include "wire/frame_header.h"
#include "wire/pabo_shim.h"

namespace fcswitch {
namespace {

// θ = 0.8, λ = 50: the §V parameters. Values from Eq. 4 by hand (NOTES.md, PABO).
TEST(BounceProbability, Eq4AtThePapersParameters) {
  const pabo::BounceProbability p(0.8, 50);
  EXPECT_NEAR(p(0.81, 0), 0.3935, 5e-5);
  EXPECT_NEAR(p(0.85, 0), 0.9180, 5e-5);
  EXPECT_NEAR(p(0.90, 0), 0.9933, 5e-5);
  EXPECT_NEAR(p(0.85, 1), 0.7183, 5e-5);
  EXPECT_NEAR(p(0.85, 2), 0.5863, 5e-5);
  // P(θ) = 0 and P(1) = 1 whatever n_p (PRCP-1); nothing below θ.
  for (uint32_t n : {0u, 1u, 2u, 10u, 1000u}) {
    EXPECT_EQ(p(0.8, n), 0.0) << n;
    EXPECT_EQ(p(0.3, n), 0.0) << n;
    EXPECT_DOUBLE_EQ(p(1.0, n), 1.0) << n;
  }
  // PRCP-3: a packet bounced more often is less likely to go back again.
  EXPECT_GT(p(0.9, 0), p(0.9, 1));
  EXPECT_GT(p(0.9, 1), p(0.9, 5));
}

TEST(BounceProbability, LambdaZeroIsTheLinearLimit) {
  const pabo::BounceProbability p(0.8, 0);
  EXPECT_NEAR(p(0.9, 0), 0.5, 1e-12);
  EXPECT_NEAR(p(0.85, 3), 0.25, 1e-12);
  // And λ → 0 tends to it.
  EXPECT_NEAR(pabo::BounceProbability(0.8, 1e-6)(0.9, 0), 0.5, 1e-6);
  // As n_p grows, P tends to the same line (NOTES.md: no cap on bounces).
  EXPECT_NEAR(pabo::BounceProbability(0.8, 50)(0.9, 1'000'000), 0.5, 1e-4);
}

pabo::BounceSettings settings_500() {
  pabo::BounceSettings s;
  s.theta = 0.8;
  s.lambda = 50;
  s.guard_packets = 3;
  s.normal_capacity_packets = 500;
  s.bounce_capacity_packets = 100;
  return s;
}

TEST(BouncePolicy, UtilisationOfTheSubqueueThePacketWouldJoin) {
  const pabo::BouncePolicy policy(settings_500(), 1);
  EXPECT_DOUBLE_EQ(policy.utilisation({400, 0}, 1514, false), 0.8);
  EXPECT_DOUBLE_EQ(policy.utilisation({50, 0}, 1514, true), 0.5);
  // The guard: within 3 packets of full it is full.
  EXPECT_DOUBLE_EQ(policy.utilisation({496, 0}, 1514, false), 496.0 / 500);
  EXPECT_DOUBLE_EQ(policy.utilisation({497, 0}, 1514, false), 1.0);
  EXPECT_DOUBLE_EQ(policy.utilisation({97, 0}, 1514, true), 1.0);
  EXPECT_TRUE(policy.full({500, 0}, 1514, false));
  EXPECT_FALSE(policy.full({499, 0}, 1514, false));
  EXPECT_TRUE(policy.full({100, 0}, 1514, true));
}

TEST(BouncePolicy, ByteCapacityCountsWhenSet) {
  pabo::BounceSettings s = settings_500();
  s.normal_capacity_bytes = 100'000;
  const pabo::BouncePolicy policy(s, 1);
  EXPECT_DOUBLE_EQ(policy.utilisation({10, 50'000}, 1000, false), 0.5);
  EXPECT_DOUBLE_EQ(policy.utilisation({10, 97'000}, 1000, false), 1.0);  // guard: 3 × 1000
  EXPECT_TRUE(policy.full({10, 99'500}, 1000, false));
}

TEST(BouncePolicy, DrawsFollowEq4AndRepeatWithTheSeed) {
  pabo::BouncePolicy a(settings_500(), 7), b(settings_500(), 7);
  constexpr int kDraws = 200'000;
  int bounced = 0;
  for (int i = 0; i < kDraws; ++i) {
    const bool x = a.bounces({425, 0}, 1514, 0);  // u = 0.85: P = 0.9180
    EXPECT_EQ(x, b.bounces({425, 0}, 1514, 0));
    bounced += x;
  }
  EXPECT_NEAR(static_cast<double>(bounced) / kDraws, 0.9180, 0.005);
  EXPECT_FALSE(a.bounces({400, 0}, 1514, 0));  // at θ: never
  EXPECT_TRUE(a.bounces({497, 0}, 1514, 0));   // in the guard: always
  EXPECT_TRUE(a.bounces({97, 0}, 1514, 3));    // the bounce sub-queue's guard, n_p = 3
}

TEST(BouncePolicy, WithoutBouncingNothingBounces) {
  pabo::BounceSettings s = settings_500();
  s.bounce = false;
  pabo::BouncePolicy policy(s, 1);
  EXPECT_FALSE(policy.bounces({499, 0}, 1514, 0));
  EXPECT_TRUE(policy.full({500, 0}, 1514, false));
}

// passes() is FWD's shortcut for a run's packets: exactly "no bounce without a draw, not full"
// as utilisation(), Eq. 4 and full() decide it, at every depth, for capacities, thresholds
// (θ = 0.8 lands between integers at most capacities; 0.5 and 0 on them) and guards.
TEST(BouncePolicy, PassesIsEq4sZeroAndNotFullExactly) {
  int checked = 0, passed = 0;
  for (const bool bounce : {true, false})
    for (const double theta : {0.0, 0.5, 0.8, 0.97})
      for (const uint32_t guard : {0u, 1u, 3u})
        for (const uint32_t packets : {4u, 7u, 10u, 33u, 100u})
          for (const uint64_t bytes : {uint64_t{0}, uint64_t{4'000}, uint64_t{15'170}}) {
            pabo::BounceSettings s;
            s.bounce = bounce;
            s.theta = theta;
            s.guard_packets = guard;
            s.normal_capacity_packets = packets;
            s.normal_capacity_bytes = bytes;
            if (bounce && guard >= packets) continue;  // the config refuses it
            const pabo::BouncePolicy policy(s, 1);
            for (const uint32_t frame : {60u, 1514u})
              for (uint64_t d = 0; d <= packets + 1; ++d)
                for (uint64_t b = 0; b <= bytes + 2 * frame; b += bytes ? 97 : 1) {
                  const pabo::SubqueueDepth depth{d, b};
                  const bool no_draw =
                      !bounce ||
                      policy.probability()(policy.utilisation(depth, frame, false), 0) <= 0;
                  const bool expected = no_draw && !policy.full(depth, frame, false);
                  ASSERT_EQ(policy.passes(depth, frame), expected)
                      << "bounce " << bounce << " θ " << theta << " guard " << guard << " capacity "
                      << packets << "/" << bytes << " frame " << frame << " depth " << d << "/"
                      << b;
                  ++checked;
                  passed += expected;
                  if (!bytes) break;
                }
          }
  EXPECT_GT(checked, 10'000);
  EXPECT_GT(passed, 1'000);  // both answers are exercised
  EXPECT_LT(passed, checked);
}

TEST(PaboShim, FieldsFollowThePapersCounters) {
  // Bounced twice, then forwarded three times: distance back to 0, max 2, 5 hops, n_p 2.
  wire::PaboShim s = wire::bounced(wire::bounced(wire::PaboShim{}));
  EXPECT_EQ(s, (wire::PaboShim{2, 2, 2, 2}));
  s = wire::forwarded(wire::forwarded(wire::forwarded(s)));
  EXPECT_EQ(s, (wire::PaboShim{2, 0, 2, 5})) << "distance stops at 0";
  // Saturating, not wrapping.
  EXPECT_EQ(wire::bounced(wire::PaboShim{65535, 255, 255, 65535}),
            (wire::PaboShim{65535, 255, 255, 65535}));
}

std::vector<uint8_t> ipv4_frame(bool vlan) {
  std::vector<uint8_t> f = {0x02, 0, 0, 0, 0, 0x0b, 0x02, 0, 0, 0, 0, 0x0a};
  if (vlan) f.insert(f.end(), {0x81, 0x00, 0x60, 0x64});  // PCP 3, VID 100
  f.insert(f.end(), {0x08, 0x00, 0x45, 26 << 2});
  f.resize(f.size() + 18 + 40, 0);
  return f;
}

TEST(PaboShim, InsertedParsedAndRemovedRoundTrip) {
  for (const bool vlan : {false, true}) {
    const std::vector<uint8_t> original = ipv4_frame(vlan);
    std::vector<uint8_t> buffer(wire::kPaboShimBytes + original.size());
    std::copy(original.begin(), original.end(), buffer.begin() + wire::kPaboShimBytes);
    const size_t at = vlan ? 16 : 12;
    uint8_t* start = wire::insert_pabo_shim(buffer.data() + wire::kPaboShimBytes, at,
                                            wire::PaboShim{3, 1, 2, 7});
    ASSERT_EQ(start, buffer.data());
    // On the wire: 0x88B5, subtype 0xB0, version 1, n_p 3, distance 1, max 2, hops 7, 0x0800.
    const std::vector<uint8_t> shim(buffer.begin() + at, buffer.begin() + at + 12);
    EXPECT_EQ(shim, (std::vector<uint8_t>{0x88, 0xB5, 0xB0, 1, 0, 3, 1, 2, 0, 7, 0x08, 0x00}));
    const auto h = wire::parse_frame_header(buffer.data(), buffer.size());
    ASSERT_EQ(h.status, wire::FrameStatus::kOk);
    EXPECT_TRUE(h.has_pabo_shim());
    EXPECT_EQ(h.pabo_offset, at);
    EXPECT_EQ(h.bounces, 3);
    EXPECT_EQ(h.ether_type, 0x0800);
    EXPECT_EQ(h.l3, wire::L3Kind::kIpv4);
    EXPECT_EQ(h.dscp, 26) << "DSCP read beneath the shim";
    EXPECT_EQ(h.has_vlan, vlan);
    if (vlan) {
      EXPECT_EQ(h.pcp, 3);
    }
    EXPECT_EQ(wire::read_pabo_shim(buffer.data() + at), (wire::PaboShim{3, 1, 2, 7}));
    uint8_t* back = wire::remove_pabo_shim(buffer.data(), at);
    EXPECT_EQ(std::vector<uint8_t>(back, back + original.size()), original);
  }
}

TEST(PaboShim, CutShortOrOtherVersionIsMalformed) {
  std::vector<uint8_t> f = {0x02, 0,    0,    0, 0, 0x0b, 0x02, 0, 0, 0, 0,    0x0a,
                            0x88, 0xB5, 0xB0, 1, 0, 1,    1,    1, 0, 1, 0x08, 0x00};
  EXPECT_EQ(wire::parse_frame_header(f.data(), f.size() - 1).status, wire::FrameStatus::kMalformed);
  f[15] = 2;
  EXPECT_EQ(wire::parse_frame_header(f.data(), f.size()).status, wire::FrameStatus::kMalformed);
  // Another subtype under 0x88B5 is not ours to read: plain data.
  f[14] = 0x42;
  const auto h = wire::parse_frame_header(f.data(), f.size());
  EXPECT_EQ(h.status, wire::FrameStatus::kOk);
  EXPECT_FALSE(h.has_pabo_shim());
  EXPECT_EQ(h.ether_type, 0x88B5);
}

}  // namespace
}  // namespace fcswitch

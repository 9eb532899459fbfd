// ECN marking (RFC 3168): the codepoint read from IPv4 and IPv6; CE set on ECT(0) and ECT(1)
// with IPv4's incremental checksum (RFC 1624) equal to a full recompute over random headers;
// Not-ECT, CE and non-IP frames untouched; DCQCN's marking curve at hand-made points, the
// DCTCP step; the seeded marker's draws repeat.
#include "wire/ecn_mark.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "ecn/ecn_marker.h"
#include "ecn/marking_probability.h"
#include "ipv4_header_checksum.h"
#include "wire/frame_header.h"

namespace fcswitch {
namespace {

using wire::CeMarkResult;
using wire::EcnCodepoint;

TEST(EcnMark, Ipv4CeOnEctWithAChecksumEqualToAFullRecompute) {
  std::mt19937_64 rng(3168);
  std::vector<uint8_t> frame(64);
  std::array<int, 4> seen{};  // rounds per codepoint on arrival
  for (int round = 0; round < 200'000; ++round) {
    wire::random_ipv4_frame(rng, frame);
    const auto header = wire::parse_frame_header(frame.data(), frame.size());
    ASSERT_EQ(header.l3, wire::L3Kind::kIpv4);
    const std::vector<uint8_t> original = frame;
    const int arrived = original[15] & 3;
    ++seen[arrived];
    ASSERT_EQ(wire::read_ecn(frame.data(), header), static_cast<EcnCodepoint>(arrived));
    const CeMarkResult result = wire::mark_ce(frame.data(), header);
    if (arrived == 0b00 || arrived == 0b11) {
      ASSERT_EQ(result, arrived ? CeMarkResult::kAlreadyCe : CeMarkResult::kNotEct);
      ASSERT_EQ(frame, original) << "round " << round;
      continue;
    }
    ASSERT_EQ(result, CeMarkResult::kMarked);
    ASSERT_EQ(frame[15], original[15] | 3) << "DSCP kept, ECN = CE";
    ASSERT_EQ(wire::read_ecn(frame.data(), header), EcnCodepoint::kCe);
    // As for the DSCP rewrite (dscp_rewrite_test.cc): never 0 with the version word in the
    // sum, so the incremental form must give what a recompute gives.
    ASSERT_EQ(static_cast<uint16_t>(frame[24] << 8 | frame[25]),
              wire::full_ipv4_checksum(&frame[14]))
        << "round " << round;
    for (size_t i = 0; i < frame.size(); ++i)
      if (i != 15 && i != 24 && i != 25) {
        ASSERT_EQ(frame[i], original[i]) << "byte " << i;
      }
  }
  for (int codepoint = 0; codepoint < 4; ++codepoint) EXPECT_GT(seen[codepoint], 40'000);
}

std::vector<uint8_t> ipv6_frame(uint8_t traffic_class) {
  std::vector<uint8_t> frame(14 + 40 + 8, 0);
  frame[12] = 0x86;
  frame[13] = 0xDD;
  // Version 6, the traffic class split over two bytes, flow label 0xABCDE.
  frame[14] = static_cast<uint8_t>(0x60 | traffic_class >> 4);
  frame[15] = static_cast<uint8_t>((traffic_class & 0x0F) << 4 | 0x0A);
  frame[16] = 0xBC;
  frame[17] = 0xDE;
  frame[20] = 17;
  frame[21] = 64;
  return frame;
}

TEST(EcnMark, Ipv6TrafficClassKeepsVersionDscpAndFlowLabel) {
  // DSCP 45 (0b101101) with each codepoint.
  for (const auto& [ecn, result] :
       {std::pair{0b01, CeMarkResult::kMarked}, std::pair{0b10, CeMarkResult::kMarked},
        std::pair{0b00, CeMarkResult::kNotEct}, std::pair{0b11, CeMarkResult::kAlreadyCe}}) {
    std::vector<uint8_t> frame = ipv6_frame(static_cast<uint8_t>(45 << 2 | ecn));
    const auto header = wire::parse_frame_header(frame.data(), frame.size());
    ASSERT_EQ(header.l3, wire::L3Kind::kIpv6);
    EXPECT_EQ(wire::read_ecn(frame.data(), header), static_cast<EcnCodepoint>(ecn));
    std::vector<uint8_t> expected = frame;
    if (result == CeMarkResult::kMarked) expected[15] |= 0x30;  // the class's two low bits
    EXPECT_EQ(wire::mark_ce(frame.data(), header), result) << "ECN " << ecn;
    EXPECT_EQ(frame, expected) << "ECN " << ecn;
    const auto after = wire::parse_frame_header(frame.data(), frame.size());
    EXPECT_EQ(after.dscp, 45);
    EXPECT_EQ(wire::read_ecn(frame.data(), after),
              result == CeMarkResult::kNotEct ? EcnCodepoint::kNotEct : EcnCodepoint::kCe);
  }
}

TEST(EcnMark, NonIpFramesHaveNoEcnFieldAndAreLeftAlone) {
  std::vector<uint8_t> frame(60, 0xFF);  // broadcast, every byte set: an ECN field would read 11
  frame[12] = 0x88;
  frame[13] = 0xB6;
  const auto header = wire::parse_frame_header(frame.data(), frame.size());
  ASSERT_EQ(header.l3, wire::L3Kind::kOther);
  const std::vector<uint8_t> original = frame;
  EXPECT_EQ(wire::read_ecn(frame.data(), header), EcnCodepoint::kNotEct);
  EXPECT_EQ(wire::mark_ce(frame.data(), header), CeMarkResult::kNotEct);
  EXPECT_EQ(frame, original);
}

// DCQCN §3.1, Fig. 5: K_min = 40 KB, K_max = 200 KB, P_max = 0.2.
TEST(MarkingProbability, DcqcnCurveAtHandMadePoints) {
  const ecn::MarkingProbability p(40'000, 200'000, 0.2);
  EXPECT_EQ(p(0), 0.0);
  EXPECT_EQ(p(40'000), 0.0) << "q = K_min marks nothing";
  EXPECT_DOUBLE_EQ(p(40'001), 0.2 / 160'000);
  EXPECT_DOUBLE_EQ(p(80'000), 0.05);  // a quarter of the band
  EXPECT_DOUBLE_EQ(p(120'000), 0.1);  // half
  EXPECT_DOUBLE_EQ(p(200'000), 0.2);  // q = K_max: P_max
  EXPECT_EQ(p(200'001), 1.0) << "past K_max: every ECT packet";
  EXPECT_EQ(p(1'000'000), 1.0);
  // P_max = 1: the line runs from 0 to 1 without a jump at K_max.
  const ecn::MarkingProbability full(0, 100'000, 1.0);
  EXPECT_DOUBLE_EQ(full(25'000), 0.25);
  EXPECT_DOUBLE_EQ(full(100'000), 1.0);
}

// K_min = K_max = K: DCTCP's single threshold (DCTCP §3.1): mark when q > K.
TEST(MarkingProbability, EqualThresholdsAreAStep) {
  const ecn::MarkingProbability step(40'000, 40'000, 0.5);
  EXPECT_EQ(step(39'999), 0.0);
  EXPECT_EQ(step(40'000), 0.0);
  EXPECT_EQ(step(40'001), 1.0) << "P_max does not apply: the band is empty";
  const ecn::MarkingProbability at_zero(0, 0, 1.0);  // mark whenever anything is queued
  EXPECT_EQ(at_zero(0), 0.0);
  EXPECT_EQ(at_zero(1), 1.0);
}

std::vector<bool> draws(uint64_t seed, const ecn::MarkingProbability& profile, int n) {
  ecn::EcnMarker marker(seed);
  std::vector<bool> out;
  for (int i = 0; i < n; ++i) out.push_back(marker.marks(profile, 120'000));
  return out;
}

TEST(EcnMarker, SeededDrawsRepeatAndFollowTheCurve) {
  const ecn::MarkingProbability p(40'000, 200'000, 0.2);  // p(120 KB) = 0.1
  const std::vector<bool> a = draws(18, p, 100'000);
  EXPECT_EQ(a, draws(18, p, 100'000)) << "the same seed, the same marks";
  EXPECT_NE(a, draws(19, p, 100'000));
  const auto marked = std::count(a.begin(), a.end(), true);
  // Binomial(100000, 0.1): σ ≈ 95; the seed fixes the count, the bound only says it is p's.
  EXPECT_NEAR(static_cast<double>(marked), 10'000, 500);
}

TEST(EcnMarker, CertainDecisionsTakeNoDraw) {
  const ecn::MarkingProbability p(40'000, 200'000, 0.2);
  ecn::EcnMarker with_certain(7);
  ecn::EcnMarker without(7);
  for (int i = 0; i < 1000; ++i) {
    // Below K_min never, above K_max always, and neither moves the generator.
    EXPECT_FALSE(with_certain.marks(p, 40'000));
    EXPECT_TRUE(with_certain.marks(p, 200'001));
    EXPECT_EQ(with_certain.marks(p, 120'000), without.marks(p, 120'000)) << i;
  }
}

}  // namespace
}  // namespace fcswitch

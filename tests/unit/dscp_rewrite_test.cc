// Tagger's tag write: the incremental IPv4 checksum (RFC 1624) against a full recompute over
// a million random headers and new DSCPs; ECN bits and the rest of the header untouched;
// IPv6's traffic class split across two bytes.
#include "wire/dscp_rewrite.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ipv4_header_checksum.h"
#include "wire/frame_header.h"

namespace fcswitch::wire {
namespace {

TEST(DscpRewrite, IncrementalChecksumEqualsFullRecomputeOnRandomHeaders) {
  std::mt19937_64 rng(1624);
  std::vector<uint8_t> frame(64);
  for (int round = 0; round < 1'000'000; ++round) {
    random_ipv4_frame(rng, frame);
    const auto header = parse_frame_header(frame.data(), frame.size());
    ASSERT_EQ(header.l3, L3Kind::kIpv4);
    const std::vector<uint8_t> original = frame;
    const uint8_t dscp = static_cast<uint8_t>(rng() & 63);
    rewrite_dscp(frame.data(), header, dscp);
    ASSERT_EQ(frame[15] >> 2, dscp);
    ASSERT_EQ(frame[15] & 3, original[15] & 3) << "ECN changed";
    const uint16_t after = static_cast<uint16_t>(frame[24] << 8 | frame[25]);
    // RFC 1624 §3: the incremental form may give 0xFFFF where a recompute gives 0x0000
    // (both are zero in one's complement); a header checksum is never 0 here since the
    // version word is in the sum, so they must be equal.
    ASSERT_EQ(after, full_ipv4_checksum(&frame[14])) << "round " << round;
    for (size_t i = 0; i < frame.size(); ++i)
      if (i != 15 && i != 24 && i != 25) {
        ASSERT_EQ(frame[i], original[i]) << "byte " << i;
      }
  }
}

TEST(DscpRewrite, Ipv6TrafficClassKeepsVersionEcnAndFlowLabel) {
  std::vector<uint8_t> frame(80, 0);
  frame[12] = 0x86;
  frame[13] = 0xDD;
  // Version 6, traffic class 0b101101_10 (DSCP 45, ECN 2), flow label 0xABCDE.
  frame[14] = 0x6B;
  frame[15] = 0x6A;
  frame[16] = 0xBC;
  frame[17] = 0xDE;
  const auto header = parse_frame_header(frame.data(), frame.size());
  ASSERT_EQ(header.l3, L3Kind::kIpv6);
  ASSERT_EQ(header.dscp, 45);
  rewrite_dscp(frame.data(), header, 3);
  const auto again = parse_frame_header(frame.data(), frame.size());
  EXPECT_EQ(again.dscp, 3);
  EXPECT_EQ(frame[14], 0x60);  // version 6, traffic class high nibble 0b0000
  EXPECT_EQ(frame[15], 0xEA);  // traffic class low nibble 0b1110 (DSCP 3's low bits, ECN 2)
  EXPECT_EQ(frame[16], 0xBC);
  EXPECT_EQ(frame[17], 0xDE);
}

}  // namespace
}  // namespace fcswitch::wire

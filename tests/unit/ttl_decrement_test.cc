// The router's TTL step: IPv4's checksum after the decrement equals a full recompute over
// random headers; a packet with TTL 1 or 0 expires untouched; IPv6's hop limit likewise.
#include "wire/ttl_decrement.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ipv4_header_checksum.h"
#include "wire/frame_header.h"

namespace fcswitch::wire {
namespace {

TEST(TtlDecrement, Ipv4ChecksumEqualsFullRecomputeAndExpiryLeavesThePacket) {
  std::mt19937_64 rng(791);
  std::vector<uint8_t> frame(64);
  int expired = 0;
  for (int round = 0; round < 200'000; ++round) {
    random_ipv4_frame(rng, frame);
    const auto header = parse_frame_header(frame.data(), frame.size());
    const std::vector<uint8_t> original = frame;
    const TtlResult result = decrement_ttl(frame.data(), header);
    if (original[22] <= 1) {
      ASSERT_EQ(result, TtlResult::kExpired);
      ASSERT_EQ(frame, original);
      ++expired;
      continue;
    }
    ASSERT_EQ(result, TtlResult::kDecremented);
    ASSERT_EQ(frame[22], original[22] - 1);
    ASSERT_EQ(static_cast<uint16_t>(frame[24] << 8 | frame[25]), full_ipv4_checksum(&frame[14]))
        << "round " << round;
  }
  EXPECT_GT(expired, 0);
}

TEST(TtlDecrement, Ipv6HopLimitAndNonIp) {
  std::vector<uint8_t> frame(14 + 40, 0);
  frame[12] = 0x86;
  frame[13] = 0xDD;
  frame[14] = 0x60;
  frame[14 + 7] = 2;
  auto header = parse_frame_header(frame.data(), frame.size());
  EXPECT_EQ(decrement_ttl(frame.data(), header), TtlResult::kDecremented);
  EXPECT_EQ(frame[14 + 7], 1);
  EXPECT_EQ(decrement_ttl(frame.data(), header), TtlResult::kExpired);
  EXPECT_EQ(frame[14 + 7], 1);
  std::vector<uint8_t> arp(42, 0);
  arp[12] = 0x08;
  arp[13] = 0x06;
  header = parse_frame_header(arp.data(), arp.size());
  EXPECT_EQ(decrement_ttl(arp.data(), header), TtlResult::kNotIp);
}

}  // namespace
}  // namespace fcswitch::wire

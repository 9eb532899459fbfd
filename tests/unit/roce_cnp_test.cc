// The RoCEv2 CNP DCQCN's notification point sends (wire/roce_cnp.h), and the lab's ACK frames.

#include <gtest/gtest.h>

#include <string>

#include "ipv4_header_checksum.h"
#include "traffic/flow_frame.h"
#include "wire/roce_cnp.h"

namespace fcswitch {
namespace {

bool checksum_ok(const uint8_t* ip) {
  return wire::full_ipv4_checksum(ip) == (ip[10] << 8 | ip[11]);
}

std::string hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) s += {digits[p[i] >> 4], digits[p[i] & 15]};
  return s;
}

wire::RoceCnpSpec spec() {
  return wire::RoceCnpSpec{.src_mac = wire::MacAddress{0x020000000009},
                           .dst_mac = wire::MacAddress{0x020000000001},
                           .src_ip = 0x0A000901,
                           .dst_ip = 0x0A000101,
                           .dscp = 3,
                           .udp_source_port = 49159,
                           .dest_qp = 7};
}

TEST(RoceCnp, BytesAsTheAnnexLaysThemOut) {
  uint8_t f[wire::kRoceCnpFrameBytes];
  wire::write_roce_cnp(f, spec());
  // Built independently (Python: struct and zlib.crc32 over the IBTA A17.4.5.1 masked headers,
  // as scapy's contrib/roce.py computes the ICRC): Ethernet, IPv4 (DSCP 3, Not-ECT), UDP to
  // 4791, BTH opcode 0x81 P_Key 0xFFFF BECN DestQP 7, 16 zero bytes, ICRC LSB first.
  EXPECT_EQ(hex(f, sizeof f),
            "0200000000010200000000090800450c003c0000400040111ca40a0009010a000101c00712b70028"
            "00008100ffff400000070000000000000000000000000000000000000000d3e51ce7");
  EXPECT_TRUE(checksum_ok(f + 14));
  EXPECT_EQ(wire::read_roce_cnp(f, sizeof f), 7u);
}

TEST(RoceCnp, RefusesOtherFramesAndABadIcrc) {
  uint8_t f[wire::kRoceCnpFrameBytes];
  wire::write_roce_cnp(f, spec());
  EXPECT_FALSE(wire::read_roce_cnp(f, sizeof f - 1));
  f[wire::kRoceCnpFrameBytes - 1] ^= 1;
  EXPECT_FALSE(wire::read_roce_cnp(f, sizeof f));
  f[wire::kRoceCnpFrameBytes - 1] ^= 1;
  f[42] = 0x04;  // RC SEND_ONLY: not a CNP
  EXPECT_FALSE(wire::read_roce_cnp(f, sizeof f));
}

TEST(RoceCnp, IcrcIgnoresWhatRoutersChange) {
  uint8_t f[wire::kRoceCnpFrameBytes];
  wire::write_roce_cnp(f, spec());
  f[15] = 0xFF;  // TOS (a switch may rewrite DSCP or mark CE)
  f[22] = 1;     // TTL
  EXPECT_EQ(wire::read_roce_cnp(f, sizeof f), 7u);
}

TEST(FlowAck, ReversedFrameWithTheCumulativeAck) {
  const lab::FlowFrameSpec data{.src_mac = wire::MacAddress{0x020000000001},
                                .dst_mac = wire::MacAddress{0x020000000009},
                                .src_ip = 0x0A000101,
                                .dst_ip = 0x0A000901,
                                .dscp = 24,
                                .flow = 5,
                                .frame_bytes = 1514,
                                .ecn_capable = true};
  const auto frame = lab::make_flow_frame(data);
  EXPECT_EQ(frame[15] & 3, 2) << "ECT(0)";
  EXPECT_TRUE(checksum_ok(frame.data() + 14));
  auto ack = lab::make_ack_frame(data, 10);
  ASSERT_EQ(ack.size(), lab::kFlowFrameMinBytes);
  lab::stamp_flow_sequence(ack.data(), 1234);
  EXPECT_EQ(ack[15], 10 << 2) << "the ACK DSCP, Not-ECT";
  EXPECT_TRUE(checksum_ok(ack.data() + 14));
  EXPECT_EQ(wire::MacAddress::from_bytes(ack.data()), data.src_mac);
  const auto read = lab::read_flow_ack(ack.data(), ack.size());
  ASSERT_TRUE(read);
  EXPECT_EQ(read->flow, 5u);
  EXPECT_EQ(read->sequence, 1234u);
  EXPECT_FALSE(lab::read_flow_stamp(ack.data(), ack.size())) << "an ACK is not data";
  EXPECT_FALSE(lab::read_flow_ack(frame.data(), frame.size())) << "data is not an ACK";
}

}  // namespace
}  // namespace fcswitch

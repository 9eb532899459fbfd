#include "wire/frame_header.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace fcswitch::wire {
namespace {

std::vector<uint8_t> ethernet(uint16_t ether_type, std::vector<uint8_t> payload,
                              size_t pad_to = 60) {
  std::vector<uint8_t> f = {0x02,
                            0,
                            0,
                            0,
                            0,
                            2,
                            0x02,
                            0,
                            0,
                            0,
                            0,
                            1,
                            static_cast<uint8_t>(ether_type >> 8),
                            static_cast<uint8_t>(ether_type)};
  f.insert(f.end(), payload.begin(), payload.end());
  if (f.size() < pad_to) f.resize(pad_to, 0);
  return f;
}

std::vector<uint8_t> ipv4_header(uint8_t tos) {
  std::vector<uint8_t> h(20, 0);
  h[0] = 0x45;
  h[1] = tos;
  return h;
}

TEST(FrameHeader, Ipv4DscpIsTopSixBitsOfTos) {
  const auto f = ethernet(0x0800, ipv4_header(46 << 2 | 0x3));  // EF with ECN CE
  const auto h = parse_frame_header(f.data(), f.size());
  ASSERT_EQ(h.status, FrameStatus::kOk);
  EXPECT_EQ(h.l3, L3Kind::kIpv4);
  EXPECT_EQ(h.dscp, 46);
  EXPECT_EQ(h.l3_offset, 14);
  EXPECT_EQ(h.dst.value, 0x020000000002ull);
  EXPECT_EQ(h.src.value, 0x020000000001ull);
}

TEST(FrameHeader, Ipv6DscpSpansTheFirstTwoBytes) {
  std::vector<uint8_t> ip6(40, 0);
  // Version 6, traffic class 0x68 (DSCP 26, ECN 0): 0x66 0x80.
  ip6[0] = 0x66;
  ip6[1] = 0x80;
  const auto f = ethernet(0x86DD, ip6);
  const auto h = parse_frame_header(f.data(), f.size());
  ASSERT_EQ(h.status, FrameStatus::kOk);
  EXPECT_EQ(h.l3, L3Kind::kIpv6);
  EXPECT_EQ(h.dscp, 26);
}

TEST(FrameHeader, VlanTagGivesPcpAndInnerEtherType) {
  std::vector<uint8_t> tag = {0xA0, 0x64, 0x08, 0x00};  // PCP 5, VID 100, then IPv4
  auto ip = ipv4_header(8 << 2);
  tag.insert(tag.end(), ip.begin(), ip.end());
  const auto f = ethernet(0x8100, tag);
  const auto h = parse_frame_header(f.data(), f.size());
  ASSERT_EQ(h.status, FrameStatus::kOk);
  EXPECT_TRUE(h.has_vlan);
  EXPECT_EQ(h.pcp, 5);
  EXPECT_EQ(h.vlan_id, 100);
  EXPECT_EQ(h.ether_type, 0x0800);
  EXPECT_EQ(h.dscp, 8);
  EXPECT_EQ(h.l3_offset, 18);
}

TEST(FrameHeader, RuntsAndMalformedAreTold) {
  const auto full = ethernet(0x0800, ipv4_header(0));
  EXPECT_EQ(parse_frame_header(full.data(), 13).status, FrameStatus::kRunt);
  EXPECT_EQ(parse_frame_header(full.data(), 0).status, FrameStatus::kRunt);
  EXPECT_EQ(parse_frame_header(full.data(), 60).status, FrameStatus::kOk);
  // A VLAN-tagged frame that ends inside its tag or before the inner EtherType.
  const auto tagged = ethernet(0x8100, {0xA0, 100, 0x88, 0xB6});
  EXPECT_EQ(parse_frame_header(tagged.data(), 17).status, FrameStatus::kRunt);
  EXPECT_EQ(parse_frame_header(tagged.data(), 18).status, FrameStatus::kOk);

  auto bad_version = ethernet(0x0800, {0x55, 0});
  EXPECT_EQ(parse_frame_header(bad_version.data(), bad_version.size()).status,
            FrameStatus::kMalformed);
  auto bad_ihl = ethernet(0x0800, {0x4F, 0});  // 60-byte header in a 60-byte frame
  EXPECT_EQ(parse_frame_header(bad_ihl.data(), bad_ihl.size()).status, FrameStatus::kMalformed);
  // An IPv6 header cut short: 14 + 40 > 50.
  auto short6 = ethernet(0x86DD, {0x60}, 50);
  EXPECT_EQ(parse_frame_header(short6.data(), short6.size()).status, FrameStatus::kMalformed);
  // An IPv4 header cut short in an unpadded frame: 14 + 20 > 33.
  EXPECT_EQ(parse_frame_header(full.data(), 33).status, FrameStatus::kMalformed);
}

// Linux sends ARP and TCP ACKs unpadded on virtual ports (tap, veth, memif): a whole
// Ethernet header is enough to forward a frame, and a whole IP header to read its DSCP.
TEST(FrameHeader, ShortFramesWithWholeHeadersAreForwarded) {
  const auto arp = ethernet(0x0806, std::vector<uint8_t>(28, 0), 0);  // 42 bytes, as Linux sends
  ASSERT_EQ(arp.size(), 42u);
  const auto h = parse_frame_header(arp.data(), arp.size());
  EXPECT_EQ(h.status, FrameStatus::kOk);
  EXPECT_EQ(h.ether_type, 0x0806);
  const auto bare = ethernet(0x88B5, {}, 0);  // header only
  EXPECT_EQ(parse_frame_header(bare.data(), bare.size()).status, FrameStatus::kOk);
  const auto ack = ethernet(0x0800, ipv4_header(26 << 2), 54);  // TCP ACK: 14 + 20 + 20
  const auto a = parse_frame_header(ack.data(), ack.size());
  EXPECT_EQ(a.status, FrameStatus::kOk);
  EXPECT_EQ(a.l3, L3Kind::kIpv4);
  EXPECT_EQ(a.dscp, 26);
}

TEST(FrameHeader, NonIpIsOkWithoutDscp) {
  const auto f = ethernet(0x0806, {});
  const auto h = parse_frame_header(f.data(), f.size());
  EXPECT_EQ(h.status, FrameStatus::kOk);
  EXPECT_EQ(h.l3, L3Kind::kOther);
}

TEST(MacAddress, ParsesPrintsAndClassifies) {
  auto mac = MacAddress::parse("01:80:C2:00:00:01");
  ASSERT_TRUE(mac);
  EXPECT_TRUE(mac->is_multicast());
  EXPECT_TRUE(mac->is_link_local());
  EXPECT_EQ(mac->to_string(), "01:80:c2:00:00:01");
  EXPECT_FALSE(MacAddress::parse("01:80:C2:00:00:10")->is_link_local());
  EXPECT_TRUE(MacAddress::parse("ff-ff-ff-ff-ff-ff")->is_broadcast());
  EXPECT_FALSE(MacAddress::parse("02:00:00:00:00:01")->is_multicast());
  EXPECT_FALSE(MacAddress::parse("02:00:00:00:00"));
  EXPECT_FALSE(MacAddress::parse("02:00:00:00:00:0g"));
}

// `n` writable bytes that end where a page the process may not read begins: a load past them
// faults. `data` is null when the pages could not be had.
struct BytesBeforeAGuardPage {
  explicit BytesBeforeAGuardPage(size_t n) {
    void* mapped =
        mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) return;
    pages = static_cast<uint8_t*>(mapped);
    if (mprotect(pages + page, page, PROT_NONE) == 0) data = pages + page - n;
  }
  ~BytesBeforeAGuardPage() {
    if (pages) munmap(pages, 2 * page);
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  uint8_t* pages = nullptr;
  uint8_t* data = nullptr;
};

// A decoder may hand from_bytes the last six bytes of its buffer: it must read those six and no
// more. The address sits against a page the process may not read, so a wider load faults.
TEST(MacAddress, FromBytesReadsExactlySixBytesInWireOrder) {
  BytesBeforeAGuardPage bytes(6);
  ASSERT_TRUE(bytes.data);
  uint8_t* last_six = bytes.data;
  const uint8_t wire_order[6] = {0x02, 0x1b, 0x21, 0x3c, 0x4d, 0xfe};
  std::memcpy(last_six, wire_order, 6);
  EXPECT_EQ(MacAddress::from_bytes(last_six).value, 0x021b'213c'4dfeull);
  uint8_t back[6] = {};
  MacAddress::from_bytes(last_six).to_bytes(back);
  EXPECT_EQ(std::memcmp(back, wire_order, 6), 0);
  // Every byte lands in its place: one bit at a time through all 48.
  for (int bit = 0; bit < 48; ++bit) {
    const MacAddress mac{uint64_t{1} << bit};
    mac.to_bytes(last_six);
    EXPECT_EQ(MacAddress::from_bytes(last_six), mac) << "bit " << bit;
  }
}

// parse_frame_header reads the two addresses of a header with 8-byte loads: they stay inside its
// 14 bytes (the header ends against a page the process may not read) and give what from_bytes
// gives, every bit in its place.
TEST(MacAddress, HeaderAddressesStayInsideTheHeaderAndMatchFromBytes) {
  BytesBeforeAGuardPage bytes(14);
  ASSERT_TRUE(bytes.data);
  uint8_t* header = bytes.data;
  std::memset(header, 0xA5, 14);  // the EtherType's two bytes are not part of either address
  for (int bit = 0; bit < 48; ++bit) {
    const MacAddress dst{uint64_t{1} << bit}, src{uint64_t{1} << (47 - bit)};
    dst.to_bytes(header);
    src.to_bytes(header + 6);
    EXPECT_EQ(MacAddress::destination_of_header(header), dst) << "bit " << bit;
    EXPECT_EQ(MacAddress::source_of_header(header), src) << "bit " << bit;
  }
  const auto frame = parse_frame_header(header, 14);
  EXPECT_EQ(frame.dst, MacAddress{uint64_t{1} << 47});
  EXPECT_EQ(frame.src, MacAddress{1});
}

}  // namespace
}  // namespace fcswitch::wire

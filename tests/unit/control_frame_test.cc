// PFC and credit frames byte for byte, both ways, and what the decoders refuse.

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/pfc_frame.h"

namespace fcswitch::wire {
namespace {

const MacAddress kSource{0x0200'0000'0100ull};

TEST(PfcFrame, EncodesTheGoldenBytesOf8021Qbb) {
  PfcFrame frame{kSource, 1u << 3, {}};
  frame.time[3] = 0xFFFF;
  std::array<uint8_t, kPfcFrameBytes> out;
  encode_pfc(frame, 0x8808, out.data());
  std::array<uint8_t, kPfcFrameBytes> golden{
      0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,              // MAC Control group address
      0x02, 0x00, 0x00, 0x00, 0x01, 0x00,              // source
      0x88, 0x08,                                      // MAC Control
      0x01, 0x01,                                      // PFC opcode
      0x00, 0x08,                                      // class-enable vector: priority 3
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00,              // time[0..2]
      0xFF, 0xFF,                                      // time[3]
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // time[4..7]
  };                                                   // the rest: zero padding to 60 bytes
  EXPECT_EQ(out, golden);
}

TEST(PfcFrame, RoundTripsEveryField) {
  PfcFrame frame{kSource, 0xA5, {1, 2, 3, 0xFFFF, 0, 0x1234, 7, 0x8000}};
  std::array<uint8_t, kPfcFrameBytes> out;
  encode_pfc(frame, 0x88B6, out.data());
  EXPECT_EQ(out[12], 0x88);
  EXPECT_EQ(out[13], 0xB6);
  const auto decoded = decode_pfc(out.data(), out.size());
  ASSERT_EQ(decoded.status, ControlDecodeStatus::kOk);
  EXPECT_EQ(decoded.frame, frame);
}

TEST(PfcFrame, IgnoresTheReservedOctetOfTheVector) {
  std::array<uint8_t, kPfcFrameBytes> out;
  encode_pfc(PfcFrame{kSource, 0x01, {5}}, 0x8808, out.data());
  out[16] = 0xFF;
  const auto decoded = decode_pfc(out.data(), out.size());
  ASSERT_EQ(decoded.status, ControlDecodeStatus::kOk);
  EXPECT_EQ(decoded.frame.class_enable, 0x01);
}

TEST(PfcFrame, RefusesWhatIsNotAPfcFrame) {
  std::array<uint8_t, kPfcFrameBytes> good;
  encode_pfc(PfcFrame{kSource, 0x08, {}}, 0x8808, good.data());
  EXPECT_EQ(decode_pfc(good.data(), 33).status, ControlDecodeStatus::kTooShort);
  // Unpadded, as a software sender on a virtual port may send it: the times are all there.
  EXPECT_EQ(decode_pfc(good.data(), 34).status, ControlDecodeStatus::kOk);
  EXPECT_EQ(decode_pfc(good.data(), 0).status, ControlDecodeStatus::kTooShort);

  auto bad_dst = good;
  bad_dst[5] = 0x02;
  EXPECT_EQ(decode_pfc(bad_dst.data(), bad_dst.size()).status,
            ControlDecodeStatus::kBadDestination);
  auto pause = good;
  pause[15] = 0x01;
  pause[14] = 0x00;  // 802.3x PAUSE
  EXPECT_EQ(decode_pfc(pause.data(), pause.size()).status, ControlDecodeStatus::kPauseOpcode);
  auto other = good;
  other[14] = 0x02;
  EXPECT_EQ(decode_pfc(other.data(), other.size()).status, ControlDecodeStatus::kUnknownOpcode);
  // A PAUSE never passes for a stage opcode.
  EXPECT_EQ(decode_pfc(pause.data(), pause.size(), kPauseOpcode).status,
            ControlDecodeStatus::kPauseOpcode);
}

// Buffer-based GFC stage frames (GFC §5.1): the PFC layout, with the link's stage opcode when
// it has one; the decoder accepts that opcode too and says which one came.
TEST(PfcFrame, StageFramesCarryTheLinksOpcode) {
  PfcFrame stage{kSource, 0x08, {}, 0x0102};
  stage.time[3] = 5;
  std::array<uint8_t, kPfcFrameBytes> out{};
  encode_pfc(stage, 0x8808, out.data());
  EXPECT_EQ(out[14], 0x01);
  EXPECT_EQ(out[15], 0x02);
  EXPECT_EQ(decode_pfc(out.data(), out.size()).status, ControlDecodeStatus::kUnknownOpcode);
  const auto decoded = decode_pfc(out.data(), out.size(), 0x0102);
  ASSERT_EQ(decoded.status, ControlDecodeStatus::kOk);
  EXPECT_EQ(decoded.frame, stage);
  encode_pfc(PfcFrame{kSource, 0x08, {}}, 0x8808, out.data());
  EXPECT_EQ(decode_pfc(out.data(), out.size(), 0x0102).frame.opcode, kPfcOpcode);
}

TEST(CreditFrame, LaysOutEntriesBigEndianAfterTheSubtype) {
  CreditFrame frame{kSource, 1u << 3, {}};
  frame.entry[3] = CreditEntry{0x01020304, 0xA0B0C0D0};
  std::array<uint8_t, kCreditFrameBytes> out;
  encode_credit(frame, out.data());
  EXPECT_EQ(out[12], 0x88);
  EXPECT_EQ(out[13], 0xB5);
  EXPECT_EQ(out[14], 0xCB);  // subtype
  EXPECT_EQ(out[15], 1);     // version
  EXPECT_EQ(out[16], 0x08);  // entry mask
  const std::array<uint8_t, 8> entry3{0x01, 0x02, 0x03, 0x04, 0xA0, 0xB0, 0xC0, 0xD0};
  EXPECT_TRUE(std::equal(entry3.begin(), entry3.end(), out.begin() + 18 + 3 * 8));
  const auto decoded = decode_credit(out.data(), out.size());
  ASSERT_EQ(decoded.status, ControlDecodeStatus::kOk);
  EXPECT_EQ(decoded.frame, frame);
}

TEST(CreditFrame, RefusesShortFramesAndOtherVersions) {
  std::array<uint8_t, kCreditFrameBytes> out;
  encode_credit(CreditFrame{kSource, 0xFF, {}}, out.data());
  EXPECT_EQ(decode_credit(out.data(), kCreditFrameBytes - 1).status,
            ControlDecodeStatus::kTooShort);
  out[15] = 2;
  EXPECT_EQ(decode_credit(out.data(), out.size()).status, ControlDecodeStatus::kBadVersion);
}

TEST(CreditFrame, CountsWholeBlocks) {
  EXPECT_EQ(credit_blocks(0), 0u);
  EXPECT_EQ(credit_blocks(1), 1u);
  EXPECT_EQ(credit_blocks(64), 1u);
  EXPECT_EQ(credit_blocks(65), 2u);
  EXPECT_EQ(credit_blocks(1518), 24u);
}

TEST(ControlFrameKind, TellsPfcCreditAndDataApart) {
  std::array<uint8_t, kPfcFrameBytes> pfc;
  encode_pfc(PfcFrame{kSource, 0x08, {}}, 0x8808, pfc.data());
  std::array<uint8_t, kCreditFrameBytes> credit;
  encode_credit(CreditFrame{kSource, 0x08, {}}, credit.data());
  EXPECT_EQ(control_frame_kind(pfc.data(), pfc.size(), 0x8808), ControlFrameKind::kMacControl);
  EXPECT_EQ(control_frame_kind(credit.data(), credit.size(), 0x8808), ControlFrameKind::kCredit);
  // A testbed that moved PFC to another EtherType: 0x8808 frames are data to it.
  EXPECT_EQ(control_frame_kind(pfc.data(), pfc.size(), 0x88B6), ControlFrameKind::kData);
  // PFC moved onto 0x88B5 still differs from the credit subtype.
  encode_pfc(PfcFrame{kSource, 0x08, {}}, 0x88B5, pfc.data());
  EXPECT_EQ(control_frame_kind(pfc.data(), pfc.size(), 0x88B5), ControlFrameKind::kMacControl);
  EXPECT_EQ(control_frame_kind(credit.data(), credit.size(), 0x88B5), ControlFrameKind::kCredit);
  // 0x88B5 with another subtype is data (PABO's shim); so is anything too short to tell.
  credit[14] = 0x42;
  EXPECT_EQ(control_frame_kind(credit.data(), credit.size(), 0x8808), ControlFrameKind::kData);
  EXPECT_EQ(control_frame_kind(pfc.data(), 14, 0x88B5), ControlFrameKind::kData);
}

}  // namespace
}  // namespace fcswitch::wire

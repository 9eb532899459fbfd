// Pyrrha's control messages (wire/pyrrha_frame.h) byte for byte, both ways; every refusal of
// the decoder; and that RX's classification and the data path's parser tell them apart from
// PABO's shim and the credit frames under the same EtherType.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "wire/control_frame_kind.h"
#include "wire/frame_header.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch::wire {
namespace {

using Bytes = std::array<uint8_t, kPyrrhaFrameBytes>;

const MacAddress kSource{0x0200'0000'0100ull};

Bytes encoded(const PyrrhaFrame& frame) {
  Bytes out;
  out.fill(0xEE);  // whatever the buffer held: the encoder writes all 60 bytes
  encode_pyrrha(frame, out.data());
  return out;
}

// Switch 7's port 3 is the root, two hops from the receiver, priority 3.
TEST(PyrrhaFrame, EncodesTheGoldenBytesOfAPause) {
  const PyrrhaFrame pause{kSource, PyrrhaOpcode::kPause, 3, 2, {7, 3}, {}};
  const Bytes golden{
      0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,  // link-constrained group address
      0x02, 0x00, 0x00, 0x00, 0x01, 0x00,  // source
      0x88, 0xB5,                          // IEEE 802 local experimental
      0xB1,                                // subtype: Pyrrha
      0x01,                                // version
      0x01,                                // opcode: PAUSE
      0x03,                                // priority
      0x02,                                // hops to the root
      0x00,                                // reserved
      0x00, 0x00, 0x00, 0x07,              // root switch
      0x00, 0x03,                          // root port
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // old root: none outside MERGE
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  };  // padding to the 60-byte minimum
  EXPECT_EQ(encoded(pause), golden);
}

// Switch 0x0102_0304's port 0x0506 replaces the false-positive root 0xA0B0_C0D0:0xE0F0; the
// ids are chosen so that a swapped byte or field shows.
TEST(PyrrhaFrame, EncodesTheGoldenBytesOfAMerge) {
  const PyrrhaFrame merge{kSource, PyrrhaOpcode::kMerge,  5,
                          3,       {0x0102'0304, 0x0506}, {0xA0B0'C0D0, 0xE0F0}};
  const Bytes golden{
      0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,  // link-constrained group address
      0x02, 0x00, 0x00, 0x00, 0x01, 0x00,  // source
      0x88, 0xB5,                          // IEEE 802 local experimental
      0xB1,                                // subtype: Pyrrha
      0x01,                                // version
      0x03,                                // opcode: MERGE
      0x05,                                // priority
      0x03,                                // hops to the (new) root
      0x00,                                // reserved
      0x01, 0x02, 0x03, 0x04,              // new root switch
      0x05, 0x06,                          // new root port
      0xA0, 0xB0, 0xC0, 0xD0,              // old root switch
      0xE0, 0xF0,                          // old root port
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  };
  EXPECT_EQ(encoded(merge), golden);
}

TEST(PyrrhaFrame, EveryMessageRoundTrips) {
  const std::vector<PyrrhaFrame> frames = {
      {kSource, PyrrhaOpcode::kPause, 0, 1, {0, 0}, {}},
      {kSource, PyrrhaOpcode::kPause, 7, 255, {UINT32_MAX, UINT16_MAX}, {}},
      {kSource, PyrrhaOpcode::kResume, 3, 0, {8000, 47}, {}},  // RESUME: hops 0, as the authors
      {kSource, PyrrhaOpcode::kResume, 3, 2, {8000, 47}, {}},
      {kSource, PyrrhaOpcode::kMerge, 3, 2, {12, 1}, {11, 4}},
      {kSource, PyrrhaOpcode::kDealloc, 6, 0, {99, 31}, {}},
      {MacAddress{0xFEDC'BA98'7654ull}, PyrrhaOpcode::kDealloc, 1, 4, {1, 2}, {}},
  };
  for (const PyrrhaFrame& frame : frames) {
    const Bytes bytes = encoded(frame);
    const PyrrhaDecodeResult decoded = decode_pyrrha(bytes.data(), bytes.size());
    ASSERT_EQ(decoded.status, ControlDecodeStatus::kOk) << pyrrha_opcode_name(frame.opcode);
    EXPECT_EQ(decoded.frame, frame) << pyrrha_opcode_name(frame.opcode);
  }
}

// Only MERGE has an old root: the encoder writes none for the others, and the decoder reads
// none from them, whatever those bytes hold (as it ignores the reserved byte and the padding).
TEST(PyrrhaFrame, OnlyAMergeCarriesAnOldRoot) {
  const PyrrhaFrame pause{kSource, PyrrhaOpcode::kPause, 3, 1, {7, 3}, {5, 5}};
  Bytes bytes = encoded(pause);
  for (size_t i = 26; i < 32; ++i) EXPECT_EQ(bytes[i], 0) << "byte " << i;
  bytes[19] = 0xFF;                                  // reserved
  bytes[27] = 0x42;                                  // old root switch
  for (size_t i = 32; i < 60; ++i) bytes[i] = 0x5A;  // padding
  const PyrrhaDecodeResult decoded = decode_pyrrha(bytes.data(), bytes.size());
  ASSERT_EQ(decoded.status, ControlDecodeStatus::kOk);
  EXPECT_EQ(decoded.frame.old_root, PyrrhaRoot{});
  EXPECT_EQ(decoded.frame.root, (PyrrhaRoot{7, 3}));
}

TEST(PyrrhaFrame, AcceptsAnUnpaddedFrameWhoseFieldsAreWhole) {
  const Bytes bytes = encoded({kSource, PyrrhaOpcode::kMerge, 3, 2, {12, 1}, {11, 4}});
  EXPECT_EQ(decode_pyrrha(bytes.data(), kPyrrhaPayloadEndBytes).status, ControlDecodeStatus::kOk);
  EXPECT_EQ(decode_pyrrha(bytes.data(), kPyrrhaPayloadEndBytes - 1).status,
            ControlDecodeStatus::kTooShort);
}

TEST(PyrrhaFrame, RefusesEveryMalformedFrame) {
  const Bytes good = encoded({kSource, PyrrhaOpcode::kPause, 3, 1, {7, 3}, {}});
  auto status = [](const Bytes& b, size_t length = kPyrrhaFrameBytes) {
    return decode_pyrrha(b.data(), length).status;
  };
  for (size_t length : {size_t{0}, size_t{6}, size_t{14}, size_t{15}, size_t{20}, size_t{31}})
    EXPECT_EQ(status(good, length), ControlDecodeStatus::kTooShort) << length << " bytes";

  Bytes unicast = good;
  kSource.to_bytes(unicast.data());
  EXPECT_EQ(status(unicast), ControlDecodeStatus::kBadDestination);
  Bytes lldp = good;
  lldp[5] = 0x0E;  // another link-constrained address is still not ours
  EXPECT_EQ(status(lldp), ControlDecodeStatus::kBadDestination);

  for (uint8_t version : {0, 2, 255}) {
    Bytes b = good;
    b[15] = version;
    EXPECT_EQ(status(b), ControlDecodeStatus::kBadVersion) << int{version};
  }
  for (uint8_t opcode : {0, 5, 0x81, 255}) {
    Bytes b = good;
    b[16] = opcode;
    EXPECT_EQ(status(b), ControlDecodeStatus::kUnknownOpcode) << int{opcode};
  }
  for (uint8_t priority : {8, 0x83, 255}) {
    Bytes b = good;
    b[17] = priority;
    EXPECT_EQ(status(b), ControlDecodeStatus::kBadField) << int{priority};
  }
  // A PAUSE or MERGE tells the receiver how far the root is: never 0. RESUME and DEALLOC are
  // matched by root, and the authors' code sends them with 0.
  for (PyrrhaOpcode op : {PyrrhaOpcode::kPause, PyrrhaOpcode::kMerge}) {
    const Bytes b = encoded({kSource, op, 3, 0, {7, 3}, {1, 1}});
    EXPECT_EQ(status(b), ControlDecodeStatus::kBadField) << pyrrha_opcode_name(op);
  }
  for (PyrrhaOpcode op : {PyrrhaOpcode::kResume, PyrrhaOpcode::kDealloc}) {
    const Bytes b = encoded({kSource, op, 3, 0, {7, 3}, {}});
    EXPECT_EQ(status(b), ControlDecodeStatus::kOk) << pyrrha_opcode_name(op);
  }
  EXPECT_EQ(kControlDecodeStatusNames[static_cast<int>(ControlDecodeStatus::kBadField)],
            "bad_field");
}

TEST(PyrrhaFrame, NamesItsOpcodes) {
  EXPECT_EQ(pyrrha_opcode_name(PyrrhaOpcode::kPause), "pause");
  EXPECT_EQ(pyrrha_opcode_name(PyrrhaOpcode::kResume), "resume");
  EXPECT_EQ(pyrrha_opcode_name(PyrrhaOpcode::kMerge), "merge");
  EXPECT_EQ(pyrrha_opcode_name(PyrrhaOpcode::kDealloc), "dealloc");
  EXPECT_EQ(pyrrha_opcode_name(static_cast<PyrrhaOpcode>(9)), "unknown");
}

// RX consumes Pyrrha's messages whatever the port's control EtherType, and a frame of another
// subtype under 0x88B5 stays data.
TEST(PyrrhaFrame, RxTakesItForPyrrhaAndTheParserForNoPaboShim) {
  const Bytes bytes = encoded({kSource, PyrrhaOpcode::kMerge, 3, 2, {12, 1}, {11, 4}});
  for (uint16_t control_ether_type : {uint16_t{0x8808}, uint16_t{0x88B5}, uint16_t{0x88B6}})
    EXPECT_EQ(control_frame_kind(bytes.data(), bytes.size(), control_ether_type),
              ControlFrameKind::kPyrrha)
        << std::hex << control_ether_type;
  EXPECT_EQ(control_frame_kind(bytes.data(), 15, 0x8808), ControlFrameKind::kPyrrha);
  Bytes pabo = bytes;
  pabo[14] = static_cast<uint8_t>(LocalSubtype::kPabo);
  EXPECT_EQ(control_frame_kind(pabo.data(), pabo.size(), 0x8808), ControlFrameKind::kData);

  // Its version byte (1) where a PABO shim has its own (also 1): only the subtype tells them
  // apart, and parse_frame_header reads no shim, no inner EtherType, no IP here.
  const FrameHeader h = parse_frame_header(bytes.data(), bytes.size());
  EXPECT_EQ(h.status, FrameStatus::kOk);
  EXPECT_FALSE(h.has_pabo_shim());
  EXPECT_EQ(h.bounces, 0);
  EXPECT_EQ(h.ether_type, 0x88B5);
  EXPECT_EQ(h.l3, L3Kind::kOther);
  EXPECT_TRUE(h.dst.is_link_local());
  // The same bytes with PABO's subtype would be read as a shim: the check is what keeps them
  // apart.
  EXPECT_TRUE(parse_frame_header(pabo.data(), pabo.size()).has_pabo_shim());
}

}  // namespace
}  // namespace fcswitch::wire

// Wireshark agrees with our PFC encoder: frames written to a pcap are decoded by tshark as
// MAC Control PFC (which it calls "Class Based Flow Control [CBFC] Pause") with the same
// class-enable vector and eight pause times, and with no malformed-packet warnings.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "command_output.h"
#include "pcap_file.h"
#include "tshark_installed.h"
#include "wire/pfc_frame.h"

namespace fcswitch {
namespace {

TEST(PfcTshark, DecodesOurFramesWithTheSameVectorAndTimes) {
  ASSERT_TRUE(tshark_installed());
  const std::vector<wire::PfcFrame> frames = {
      {wire::MacAddress{0x020000000100ull}, 0x08, {0, 0, 0, 0xFFFF, 0, 0, 0, 0}},
      {wire::MacAddress{0x020000000100ull}, 0x08, {0, 0, 0, 0, 0, 0, 0, 0}},  // XON
      {wire::MacAddress{0x020000000201ull}, 0xFF, {1, 2, 3, 4, 5, 6, 7, 0x8000}},
      {wire::MacAddress{0x020000000201ull}, 0xA5, {0xFFFF, 0, 0x1234, 0, 0, 9, 0, 0xFFFE}},
      // Buffer-based GFC stage 3 on priority 3, as TX sends it with the default stage
      // opcode (GFC §5.1: the PFC frame, the stage in the time field).
      {wire::MacAddress{0x020000000100ull}, 0x08, {0, 0, 0, 3, 0, 0, 0, 0}},
  };
  std::vector<traffic::Frame> pcap_frames;
  for (const auto& f : frames) {
    traffic::Frame bytes(wire::kPfcFrameBytes);
    wire::encode_pfc(f, 0x8808, bytes.data());
    pcap_frames.push_back(bytes);
  }
  const std::string path = ::testing::TempDir() + "pfc_" + std::to_string(getpid()) + ".pcap";
  traffic::write_pcap(path, pcap_frames);

  std::string fields = " -e eth.dst -e eth.type -e macc.opcode -e macc.cbfc.enbv";
  for (int i = 0; i < 8; ++i) fields += " -e macc.cbfc.pause_time.c" + std::to_string(i);
  const std::string out = traffic::command_output(
      "tshark -n -r " + path + " -T fields -E separator=, " + fields + " 2>/dev/null");
  std::istringstream lines(out);
  std::string line;
  size_t index = 0;
  for (; std::getline(lines, line); ++index) {
    ASSERT_LT(index, frames.size()) << out;
    const wire::PfcFrame& f = frames[index];
    std::string expected = fmt::format("01:80:c2:00:00:01,0x8808,0x0101,0x{:04x}", f.class_enable);
    for (uint16_t t : f.time) expected += "," + std::to_string(t);
    EXPECT_EQ(line, expected) << "frame " << index;
  }
  EXPECT_EQ(index, frames.size()) << "tshark output:\n" << out;

  const std::string warnings = traffic::command_output(
      "tshark -n -r " + path + " -Y '_ws.malformed || _ws.expert.severity >= warning' " +
      "-T fields -e frame.number 2>/dev/null");
  EXPECT_EQ(warnings, "");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace fcswitch

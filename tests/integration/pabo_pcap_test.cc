// PABO in the datapath (PABO §II): frames to a host behind a slow port fill its normal
// sub-queue, and the switch bounces the rest back towards their source — out of the port the
// FIB gives for the source MAC, not the port they came in on — with PABO's shim inserted
// (n_p = 1). Checked frame by frame on the pcaps, and against the report's counters.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "frame_builder.h"
#include "pcap_file.h"
#include "switch_run.h"
#include "wire/frame_header.h"
#include "wire/pabo_shim.h"

namespace fcswitch::traffic {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kHostA = 0x02000000000Aull;  // the source: static FIB entry on p2
constexpr uint64_t kHostB = 0x02000000000Bull;  // behind p1, a 20 Mb/s port
constexpr int kFrames = 40;

std::string config_text(const fs::path& dir) {
  std::ostringstream c;
  c << "[switch]\nname = \"it_pabo\"\nmbufs = 4095\n"
    << "[eal]\nargs = [\"--no-huge\", \"-m\", \"256\", \"--no-pci\", \"--no-telemetry\", "
       "\"--log-level=warning\", \"--file-prefix=fcsw_it_pabo_"
    << getpid() << "\"]\n"
    << "[layout]\npreset = \"compact\"\n"
    // u_q = 1 from 5 queued packets on (guard 3 of 8): bounces start there at the latest.
    << "[pabo]\npriorities = [0]\nnormal_capacity = 8\nbounce_capacity = 64\nguard = 3\n"
    << "theta = 0.5\nlambda = 50\n";
  for (int p = 0; p < 3; ++p) {
    c << "[[ports]]\nname = \"p" << p << "\"\ndevice = \"net_pcap" << p;
    if (p == 0) c << ",rx_pcap=" << (dir / "in0.pcap").string();
    c << ",tx_pcap=" << (dir / ("out" + std::to_string(p) + ".pcap")).string() << "\"\n";
    if (p == 1) c << "rate_limit = \"20Mbps\"\n";
  }
  c << "[[fib]]\nmac = \"02:00:00:00:00:0a\"\nport = \"p2\"\n"
    << "[[fib]]\nmac = \"02:00:00:00:00:0b\"\nport = \"p1\"\n";
  return c.str();
}

uint64_t json_counter(const std::string& json, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex(pattern + "([0-9]+)"))) return ~0ull;
  return std::stoull(m[1]);
}

TEST(PaboPcap, BouncedFramesLeaveByTheSourcesPortWithOneBounce) {
  const fs::path dir = fs::temp_directory_path() / ("fcsw_it_pabo_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<Frame> in;
  std::map<Frame, uint32_t> sequence_of;
  for (int i = 0; i < kFrames; ++i) {
    FrameSpec s;
    s.dst = kHostB;
    s.src = kHostA;
    s.sequence = static_cast<uint32_t>(i + 1);
    s.size = 200;
    if (i % 2) s.vlan_pcp = 0;  // half behind a VLAN tag: the shim goes behind the tag
    in.push_back(build_frame(s));
    sequence_of[in.back()] = s.sequence;
  }
  write_pcap((dir / "in0.pcap").string(), in);
  std::ofstream(dir / "switch.toml") << config_text(dir);
  const SwitchRun run = run_switch_until_idle(FCSWITCH_BINARY, dir.string());
  const std::string& log = run.log;
  ASSERT_EQ(run.status, 0) << log;

  EXPECT_TRUE(read_pcap((dir / "out0.pcap").string()).empty())
      << "a bounce went back by the arrival port, not by the source's FIB port";
  std::map<uint32_t, int> seen;
  const auto forwarded = read_pcap((dir / "out1.pcap").string());
  for (const Frame& f : forwarded) {
    const auto known = sequence_of.find(f);
    ASSERT_NE(known, sequence_of.end()) << "p1: a frame changed on a normal forward";
    ++seen[known->second];
  }
  const auto bounced = read_pcap((dir / "out2.pcap").string());
  for (const Frame& f : bounced) {
    const auto header = wire::parse_frame_header(f.data(), f.size());
    ASSERT_EQ(header.status, wire::FrameStatus::kOk);
    ASSERT_TRUE(header.has_pabo_shim());
    EXPECT_EQ(header.pabo_offset, header.has_vlan ? 16 : 12) << "the shim sits behind the tag";
    EXPECT_EQ(header.ether_type, 0x0800);
    EXPECT_EQ(header.l3, wire::L3Kind::kIpv4);
    const wire::PaboShim shim = wire::read_pabo_shim(f.data() + header.pabo_offset);
    EXPECT_EQ(shim, (wire::PaboShim{1, 1, 1, 1})) << "n_p, distance, max distance, hops";
    // Without the shim it is the frame that was sent.
    Frame original(f.begin(), f.begin() + header.pabo_offset);
    original.insert(original.end(), f.begin() + header.pabo_offset + wire::kPaboShimBytes, f.end());
    const auto known = sequence_of.find(original);
    ASSERT_NE(known, sequence_of.end()) << "p2: the bounced frame's own bytes changed";
    ++seen[known->second];
  }
  // Every frame once: forwarded or bounced. The normal sub-queue takes at most 5 at a time.
  EXPECT_EQ(seen.size(), static_cast<size_t>(kFrames));
  for (const auto& [seq, times] : seen) EXPECT_EQ(times, 1) << "sequence " << seq;
  std::printf("forwarded %zu, bounced %zu of %d\n", forwarded.size(), bounced.size(), kFrames);
  EXPECT_GE(forwarded.size(), 5u);
  EXPECT_GE(bounced.size(), 1u);

  std::ifstream json_in(dir / "report.json");
  const std::string json((std::istreambuf_iterator<char>(json_in)), {});
  EXPECT_EQ(json_counter(json, R"("name":"p2".*?"pabo":\{"0":\{"bounced":)"), bounced.size())
      << json;
  EXPECT_EQ(json_counter(json, R"("name":"p1".*?"pabo":\{"0":\{"bounced":)"), 0u);
  EXPECT_EQ(json_counter(json, R"("queue_capacity":)"), 0u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fcswitch::traffic

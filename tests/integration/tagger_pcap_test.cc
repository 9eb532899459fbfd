// Tagger in the datapath (Tagger §7): frames from pcaps through fcswitch with a [tagger] rule
// table. Checked per output frame: the tag (DSCP) the rules give, the egress queue of the new
// tag (the report's per-queue counts), unmatched lossless traffic demoted to the lossy tag and
// queue, everything else byte for byte unchanged; and tshark decodes the DSCP we wrote and
// finds every IPv4 header checksum good.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "command_output.h"
#include "frame_builder.h"
#include "pcap_file.h"
#include "switch_run.h"
#include "tshark_installed.h"

namespace fcswitch::traffic {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kHostA = 0x02000000000Aull;  // behind p0
constexpr uint64_t kHostB = 0x02000000000Bull;  // behind p1
constexpr uint64_t kHostC = 0x02000000000Cull;  // behind p2

std::string config_text(const fs::path& dir) {
  std::ostringstream c;
  c << "[switch]\nname = \"it_tag\"\nlossless_priorities = [3, 4]\nmbufs = 4095\n"
    << "[eal]\nargs = [\"--no-huge\", \"-m\", \"256\", \"--no-pci\", \"--no-telemetry\", "
       "\"--log-level=warning\", \"--file-prefix=fcsw_it_tag_"
    << getpid() << "\"]\n";
  for (int p = 0; p < 3; ++p)
    c << "[[ports]]\nname = \"p" << p << "\"\ndevice = \"net_pcap" << p
      << ",rx_pcap=" << (dir / ("in" + std::to_string(p) + ".pcap")).string()
      << ",tx_pcap=" << (dir / ("out" + std::to_string(p) + ".pcap")).string() << "\"\n";
  const char* hosts[] = {"0a", "0b", "0c"};
  for (int p = 0; p < 3; ++p)
    c << "[[fib]]\nmac = \"02:00:00:00:00:" << hosts[p] << "\"\nport = \"p" << p << "\"\n";
  // Tags 1 and 2 are lossless priorities 3 and 4. p0 → p1 is a bounce: 1 becomes 2.
  c << R"([tagger]
tags = { "1" = 3, "2" = 4 }
lossy_tag = 0
lossy_priority = 0
rules = [
  { tag = 1, in = "p0", out = "p1", new_tag = 2 },
  { tag = 1, in = "p0", out = "p2", new_tag = 1 },
  { tag = 2, in = ["p1", "p2"], out = "p0", new_tag = 2 },
]
)";
  return c.str();
}

struct Want {
  int out_port;
  int dscp;   // after the switch
  int queue;  // egress queue: the new tag's priority, or 8 (lossy)
};

TEST(TaggerPcap, RewritesTagsQueuesByTheNewTagAndDemotesUnmatched) {
  const fs::path dir = fs::temp_directory_path() / ("fcsw_it_tag_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  std::vector<Frame> in[3];
  std::map<uint32_t, Frame> sent;
  std::map<uint32_t, Want> want;
  uint32_t seq = 1;
  auto send = [&](int port, uint64_t dst, uint64_t src, FrameSpec::L3 l3, uint8_t dscp, Want w,
                  uint8_t ecn = 0) {
    FrameSpec s;
    s.dst = dst;
    s.src = src;
    s.l3 = l3;
    s.dscp = dscp;
    s.ecn = ecn;
    s.sequence = seq;
    s.size = 100 + 7 * seq;
    const Frame f = build_frame(s);
    in[port].push_back(f);
    sent[seq] = f;
    want[seq++] = w;
  };
  using L3 = FrameSpec::L3;
  for (int i = 0; i < 5; ++i) send(0, kHostB, kHostA, L3::kIpv4, 1, {1, 2, 4}, i % 4);  // rule 0
  for (int i = 0; i < 3; ++i) send(0, kHostB, kHostA, L3::kIpv6, 1, {1, 2, 4}, 1);      // rule 0
  for (int i = 0; i < 4; ++i) send(0, kHostC, kHostA, L3::kIpv4, 1, {2, 1, 3});         // rule 1
  for (int i = 0; i < 3; ++i) send(1, kHostA, kHostB, L3::kIpv4, 2, {0, 2, 4});         // rule 2
  for (int i = 0; i < 2; ++i) send(2, kHostA, kHostC, L3::kIpv6, 2, {0, 2, 4});         // rule 2
  // Lossless tag, no rule (p1 → p2): demoted to the lossy tag and queue.
  for (int i = 0; i < 3; ++i) send(1, kHostC, kHostB, L3::kIpv4, 2, {2, 0, 8}, 2);
  // A tag outside the map (46): lossy on arrival, leaves with the lossy tag.
  for (int i = 0; i < 2; ++i) send(2, kHostB, kHostC, L3::kIpv4, 46, {1, 0, 8});
  // Not IP: no tag; classified by [classify] (default priority 0) and left alone.
  send(0, kHostB, kHostA, L3::kOther, 0, {1, -1, 0});
  for (int p = 0; p < 3; ++p)
    write_pcap((dir / ("in" + std::to_string(p) + ".pcap")).string(), in[p]);
  std::ofstream(dir / "switch.toml") << config_text(dir);

  const SwitchRun run = run_switch_until_idle(FCSWITCH_BINARY, dir.string());
  const std::string& log = run.log;
  ASSERT_EQ(run.status, 0) << log;

  std::map<int, std::array<int, 9>> queue_count;
  size_t received = 0;
  for (int p = 0; p < 3; ++p) {
    const std::string path = (dir / ("out" + std::to_string(p) + ".pcap")).string();
    const auto out = read_pcap(path);
    for (const Frame& f : out) {
      const uint32_t s = sequence_of(f);
      ASSERT_TRUE(want.count(s)) << "unexpected frame on p" << p;
      const Want& w = want.at(s);
      EXPECT_EQ(p, w.out_port) << "frame " << s;
      ++queue_count[p][w.queue];
      ++received;
      // Everything but the TOS/traffic-class word and the IPv4 checksum is as sent.
      Frame expected = sent.at(s);
      ASSERT_EQ(f.size(), expected.size());
      if (w.dscp >= 0) {
        const bool v4 = expected[12] == 0x08;
        if (v4) {
          EXPECT_EQ(f[15] >> 2, w.dscp) << "frame " << s;
          EXPECT_EQ(f[15] & 3, expected[15] & 3) << "ECN kept, frame " << s;
          expected[15] = f[15];
          expected[24] = f[24];
          expected[25] = f[25];
        } else {
          const int tclass = (f[14] & 0x0F) << 4 | f[15] >> 4;
          EXPECT_EQ(tclass >> 2, w.dscp) << "frame " << s;
          EXPECT_EQ(tclass & 3, ((expected[14] & 0x0F) << 4 | expected[15] >> 4) & 3);
          expected[14] = f[14];
          expected[15] = f[15];
        }
      }
      EXPECT_EQ(f, expected) << "frame " << s << " changed beyond its tag";
    }
    // tshark: the DSCP it decodes is the one wanted, and every IPv4 checksum is good.
    ASSERT_TRUE(tshark_installed());
    const std::string fields =
        command_output("tshark -n -r " + path +
                       " -o ip.check_checksum:TRUE -T fields -E separator=, -e ip.dsfield.dscp "
                       "-e ipv6.tclass.dscp -e ip.checksum.status 2>/dev/null");
    std::istringstream lines(fields);
    std::string line;
    size_t index = 0;
    for (; std::getline(lines, line); ++index) {
      ASSERT_LT(index, out.size()) << fields;
      const Want& w = want.at(sequence_of(out[index]));
      const bool v4 = out[index][12] == 0x08;
      const bool v6 = out[index][12] == 0x86;
      std::string expected_line = ",,";
      if (v4) expected_line = std::to_string(w.dscp) + ",,1";  // 1: checksum good
      if (v6) expected_line = "," + std::to_string(w.dscp) + ",";
      EXPECT_EQ(line, expected_line) << "p" << p << " frame " << index;
    }
    EXPECT_EQ(index, out.size()) << "tshark output:\n" << fields;
  }
  EXPECT_EQ(received, want.size());

  std::ifstream json_in(dir / "report.json");
  const std::string json((std::istreambuf_iterator<char>(json_in)), {});
  for (int p = 0; p < 3; ++p) {
    std::string list;
    for (int q = 0; q < 9; ++q) list += (q ? "," : "") + std::to_string(queue_count[p][q]);
    const std::string port = "\"name\":\"p" + std::to_string(p) + "\"";
    const size_t at = json.find(port);
    const std::string object = json.substr(at, json.find("}}", at) - at);
    EXPECT_NE(object.find("\"tx_packets\":[" + list + "]"), std::string::npos)
        << "p" << p << " per-queue counts, want [" << list << "]\n"
        << object;
  }
  // Step 1: each port's admissions by the arriving tag's priority (tag 1 → 3, tag 2 → 4, any
  // other IP tag → lossy priority 0), non-IP by [classify] (priority 0).
  const char* admitted[] = {"[1,0,0,12,0,0,0,0]", "[0,0,0,0,6,0,0,0]", "[2,0,0,0,2,0,0,0]"};
  for (int p = 0; p < 3; ++p) {
    const std::string port = "\"name\":\"p" + std::to_string(p) + "\"";
    const size_t at = json.find(port);
    EXPECT_NE(json.substr(at, json.find("}}", at) - at)
                  .find(std::string("\"admitted_packets\":") + admitted[p]),
              std::string::npos)
        << "p" << p << " admitted, want " << admitted[p];
  }
  // 8 + 4 + 5 rule hits; 8 rewrites 1 → 2, 3 demotions 2 → 0, 2 from 46 → 0.
  EXPECT_NE(json.find("\"tagger\":{\"rewrites\":13,\"demoted\":3,\"lossy_in\":2,"
                      "\"rule_hits\":[8,4,5]}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"mempool_in_use\":0,"), std::string::npos) << json;
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace fcswitch::traffic

// ECN marking in the datapath (RFC 3168; DCQCN §3.1): one burst of 32 frames from a pcap, so
// that FWD admits them all before any TX task runs and the depth each one finds in its egress
// queue is the bytes of the queue-3 frames ahead of it. p1 marks with a step at 1000 bytes
// (DCTCP), p2 with a band (0, 3000] at P_max 0.5 (DCQCN). Checked frame by frame on the
// output pcaps — CE exactly where the step says, never on Not-ECT, CE left CE, nothing else
// changed, nothing dropped — then by tshark (the ECN it decodes, every IPv4 checksum good),
// and against the report's counters.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "command_output.h"
#include "frame_builder.h"
#include "pcap_file.h"
#include "switch_run.h"
#include "tshark_installed.h"

namespace fcswitch::traffic {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kHostA = 0x02000000000Aull;  // the source, behind p0
constexpr uint64_t kHostB = 0x02000000000Bull;  // behind p1: step marking
constexpr uint64_t kHostC = 0x02000000000Cull;  // behind p2: a probability band
constexpr uint32_t kFrameBytes = 200;
constexpr int kFrames = 32;  // one RX burst
constexpr uint64_t kStepBytes = 1000;
constexpr uint64_t kBandMaxBytes = 3000;
constexpr int kEcnQueue = 3;  // DSCP 26 → priority 3 ([classify]'s standard map: DSCP / 8)

std::string config_text(const fs::path& dir) {
  std::ostringstream c;
  c << "[switch]\nname = \"it_ecn\"\nmbufs = 4095\n"
    << "[eal]\nargs = [\"--no-huge\", \"-m\", \"256\", \"--no-pci\", \"--no-telemetry\", "
       "\"--log-level=warning\", \"--file-prefix=fcsw_it_ecn_"
    << getpid() << "\"]\n"
    << "[layout]\npreset = \"compact\"\n"
    << "[ecn]\nqueues = [" << kEcnQueue << "]\nk_min = " << kStepBytes << "\nk_max = " << kStepBytes
    << "\nseed = 18\n";
  for (int p = 0; p < 3; ++p) {
    c << "[[ports]]\nname = \"p" << p << "\"\ndevice = \"net_pcap" << p;
    if (p == 0) c << ",rx_pcap=" << (dir / "in0.pcap").string();
    c << ",tx_pcap=" << (dir / ("out" + std::to_string(p) + ".pcap")).string() << "\"\n";
    if (p == 2) c << "[ports.ecn]\nk_min = 0\nk_max = " << kBandMaxBytes << "\np_max = 0.5\n";
  }
  c << "[[fib]]\nmac = \"02:00:00:00:00:0a\"\nport = \"p0\"\n"
    << "[[fib]]\nmac = \"02:00:00:00:00:0b\"\nport = \"p1\"\n"
    << "[[fib]]\nmac = \"02:00:00:00:00:0c\"\nport = \"p2\"\n";
  return c.str();
}

struct Sent {
  Frame frame;
  int out_port = 0;
  bool ipv6 = false;
  uint8_t ecn = 0;
  int queue = kEcnQueue;
  uint64_t queued_bytes = 0;  // what its egress queue held when it joined
};

uint8_t ecn_of(const Frame& f) {
  return f[12] == 0x86 ? (f[15] >> 4) & 3 : f[15] & 3;
}

TEST(EcnPcap, MarksCeOnEctAtTheQueueDepthTheProfileSaysAndNothingElse) {
  const fs::path dir = fs::temp_directory_path() / ("fcsw_it_ecn_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Each ECN codepoint on IPv4 and IPv6, to both marking ports, and now and then a packet of
  // queue 0 (DSCP 0), which has no profile: never marked, never counted.
  std::map<uint32_t, Sent> sent;  // by sequence number
  std::vector<Frame> in;
  uint64_t queued[3] = {};
  for (int i = 0; i < kFrames; ++i) {
    Sent s;
    s.out_port = 1 + i % 2;
    s.ipv6 = i % 5 == 4;
    s.ecn = static_cast<uint8_t>(i / 2 % 4);  // 00, 01, 10, 11 in turn on each port
    s.queue = i % 7 == 6 ? 0 : kEcnQueue;
    FrameSpec spec;
    spec.dst = s.out_port == 1 ? kHostB : kHostC;
    spec.src = kHostA;
    spec.l3 = s.ipv6 ? FrameSpec::L3::kIpv6 : FrameSpec::L3::kIpv4;
    spec.dscp = s.queue == kEcnQueue ? 26 : 0;
    spec.ecn = s.ecn;
    spec.sequence = static_cast<uint32_t>(i + 1);
    spec.size = kFrameBytes;
    s.frame = build_frame(spec);
    if (s.queue == kEcnQueue) {
      s.queued_bytes = queued[s.out_port];
      queued[s.out_port] += kFrameBytes;
    }
    in.push_back(s.frame);
    sent[spec.sequence] = s;
  }
  write_pcap((dir / "in0.pcap").string(), in);
  std::ofstream(dir / "switch.toml") << config_text(dir);
  const SwitchRun run = run_switch_until_idle(FCSWITCH_BINARY, dir.string());
  ASSERT_EQ(run.status, 0) << run.log;

  // What the report must say, per marking port, counted from the frames.
  struct Counts {
    uint64_t marked = 0, not_ect = 0, ce_arrived = 0, not_ect_in_reach = 0, ce_out = 0;
  };
  std::map<int, Counts> counted;
  size_t received = 0;
  for (int p = 1; p <= 2; ++p) {
    const std::string path = (dir / ("out" + std::to_string(p) + ".pcap")).string();
    const std::vector<Frame> out = read_pcap(path);
    Counts& c = counted[p];
    for (const Frame& f : out) {
      ++received;
      const Sent& s = sent.at(sequence_of(f));
      ASSERT_EQ(s.out_port, p);
      ASSERT_EQ(f.size(), s.frame.size());
      const bool ect = s.ecn == 0b01 || s.ecn == 0b10;
      const bool in_reach =
          s.queue == kEcnQueue && s.queued_bytes > (p == 1 ? kStepBytes : 0);  // p(q) > 0
      const uint8_t ecn = ecn_of(f);
      if (ecn == 0b11 && s.queue == kEcnQueue) ++c.ce_out;
      if (s.queue == kEcnQueue && s.ecn == 0b11) ++c.ce_arrived;
      if (s.queue == kEcnQueue && s.ecn == 0b00 && in_reach) ++c.not_ect_in_reach;
      if (ecn != s.ecn) {
        // Only ECT becomes CE, only in the profile's reach.
        EXPECT_TRUE(ect && in_reach && ecn == 0b11) << "p" << p << " sequence " << sequence_of(f);
        ++c.marked;
        Frame expected = s.frame;
        if (s.ipv6) {
          expected[15] |= 0x30;
        } else {
          expected[15] |= 0x03;
          expected[24] = f[24];  // the checksum: tshark checks it below
          expected[25] = f[25];
        }
        EXPECT_EQ(f, expected) << "sequence " << sequence_of(f) << " changed beyond its ECN";
      } else {
        EXPECT_EQ(f, s.frame) << "sequence " << sequence_of(f);
        // The step: every ECT packet past K is marked.
        if (p == 1) {
          EXPECT_FALSE(ect && in_reach) << "unmarked past K: " << sequence_of(f);
        }
      }
    }
    // tshark: the codepoint it decodes is the one in the frame, every IPv4 checksum is good.
    ASSERT_TRUE(tshark_installed());
    const std::vector<std::string> lines =
        tshark_field_lines(path, {"ip.dsfield.ecn", "ipv6.tclass.ecn", "ip.checksum.status"});
    ASSERT_EQ(lines.size(), out.size());
    uint64_t tshark_ce = 0;  // in queue 3 (frames of queue 0 may arrive CE too)
    for (size_t i = 0; i < out.size(); ++i) {
      const std::string ecn = std::to_string(ecn_of(out[i]));
      EXPECT_EQ(lines[i], out[i][12] == 0x86 ? "," + ecn + "," : ecn + ",,1")
          << "p" << p << " frame " << i;
      tshark_ce += (lines[i] == "3,,1" || lines[i] == ",3,") &&
                   sent.at(sequence_of(out[i])).queue == kEcnQueue;
    }
    EXPECT_EQ(tshark_ce, c.ce_out);
  }
  EXPECT_EQ(received, sent.size()) << "ECN never drops";
  // The step marks exactly the ECT packets past K; the band marked some.
  EXPECT_GT(counted[1].marked, 0u);
  EXPECT_GT(counted[2].marked, 0u);

  std::ifstream json_in(dir / "report.json");
  const auto report = nlohmann::json::parse(json_in);
  for (int p = 1; p <= 2; ++p) {
    const auto& port = report["ports"][p];
    ASSERT_EQ(port["name"], "p" + std::to_string(p));
    ASSERT_TRUE(port.contains("ecn")) << port.dump();
    EXPECT_EQ(port["ecn"].size(), 1u) << "only queue 3 marks";
    const auto& q = port["ecn"][std::to_string(kEcnQueue)];
    const Counts& c = counted[p];
    std::cout << "p" << p << ": " << q.dump() << " (frames: marked " << c.marked
              << ", Not-ECT in reach " << c.not_ect_in_reach << ", CE on arrival " << c.ce_arrived
              << ")\n";
    EXPECT_EQ(q["marked"], c.marked) << "p" << p;
    EXPECT_EQ(q["ce_arrived"], c.ce_arrived) << "p" << p;
    EXPECT_EQ(q["marked"].get<uint64_t>() + q["ce_arrived"].get<uint64_t>(), c.ce_out);
    // The step's draws are certain: each Not-ECT packet past K is counted. The band's are not.
    if (p == 1) {
      EXPECT_EQ(q["not_ect"], c.not_ect_in_reach);
    } else {
      EXPECT_LE(q["not_ect"].get<uint64_t>(), c.not_ect_in_reach);
    }
    uint64_t drops = 0;
    for (const auto& [reason, n] : port["drops"].items()) drops += n.get<uint64_t>();
    EXPECT_EQ(drops, 0u) << port["drops"].dump();
  }
  // [ecn] is every port's: p0's queue 3 marks too, but nothing left by it.
  EXPECT_EQ(report["ports"][0]["ecn"],
            nlohmann::json::parse(R"({"3": {"marked": 0, "not_ect": 0, "ce_arrived": 0}})"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fcswitch::traffic

// fcswitch forwards a mixed pcap through four net_pcap ports; the output pcaps are checked
// frame by frame (right port, right bytes, order kept within each priority) and the drop
// counters by reason. The same traffic runs in the compact and the GFC testbed layouts.

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "frame_builder.h"
#include "pcap_file.h"
#include "switch_run.h"

namespace fcswitch::traffic {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kHostA = 0x02000000000Aull;  // behind p0
constexpr uint64_t kHostB = 0x02000000000Bull;  // behind p1
constexpr uint64_t kHostC = 0x02000000000Cull;  // behind p2
constexpr uint64_t kHostD = 0x02000000000Dull;  // behind p3
constexpr uint64_t kUnknown = 0x0200000000EEull;
constexpr uint64_t kBroadcast = 0xFFFFFFFFFFFFull;

// What the test sends into one port, and where each frame must come out.
struct Expected {
  std::map<int, std::vector<std::pair<uint32_t, int>>> by_port;  // port → (sequence, priority)
  std::map<Frame, uint32_t> sequence_of;  // bytes that must come out → sequence
  std::map<uint32_t, int> ingress_port;   // sequence → port sent into
};

struct Traffic {
  std::vector<Frame> in[4];
  Expected expected;

  void send(int port, FrameSpec spec, std::vector<int> out_ports, int priority) {
    const Frame f = build_frame(spec);
    in[port].push_back(f);
    // Frames under 60 bytes leave padded with zeros (the pcap vdev does not pad).
    Frame out = f;
    if (out.size() < 60) out.resize(60, 0);
    expected.sequence_of[out] = spec.sequence;
    expected.ingress_port[spec.sequence] = port;
    for (int out_port : out_ports) expected.by_port[out_port].emplace_back(spec.sequence, priority);
  }
  void send_raw(int port, Frame f) { in[port].push_back(std::move(f)); }
};

Traffic mixed_traffic() {
  using L3 = FrameSpec::L3;
  Traffic t;
  uint32_t seq = 1;
  auto spec = [&](uint64_t dst, uint64_t src, L3 l3, uint8_t dscp) {
    FrameSpec s;
    s.dst = dst;
    s.src = src;
    s.l3 = l3;
    s.dscp = dscp;
    s.sequence = seq++;
    return s;
  };
  // Into p0.
  t.send(0, spec(kHostB, kHostA, L3::kIpv4, 0), {1}, 0);
  t.send(0, spec(kHostB, kHostA, L3::kIpv4, 26), {1}, 3);  // AF31 → priority 3 (lossless)
  t.send(0, spec(kHostB, kHostA, L3::kIpv4, 46), {1}, 5);  // EF → 5
  t.send(0, spec(kHostC, kHostA, L3::kIpv6, 26), {2}, 3);  // IPv6 traffic class
  {
    FrameSpec s = spec(kHostC, kHostA, L3::kOther, 0);  // tagged non-IP: by PCP
    s.vlan_pcp = 5;
    t.send(0, s, {2}, 5);
  }
  {
    FrameSpec s = spec(kHostD, kHostA, L3::kIpv4, 46);  // tagged IP: trust DSCP
    s.vlan_pcp = 2;
    s.size = 1514;
    t.send(0, s, {3}, 5);
  }
  {
    FrameSpec s = spec(kBroadcast, kHostA, L3::kOther, 0);  // ARP broadcast: flooded
    s.ether_type = 0x0806;
    t.send(0, s, {1, 2, 3}, 0);
  }
  t.send(0, spec(kUnknown, kHostA, L3::kIpv4, 26), {1, 2, 3}, 3);  // unknown unicast: flooded
  {
    FrameSpec s = spec(kHostB, kHostA, L3::kIpv4, 0);  // runt: ends inside its header
    Frame runt = build_frame(s);
    runt.resize(13);
    t.send_raw(0, runt);
  }
  {
    // Unpadded, as Linux sends a TCP ACK on a tap (14 + 20 + 20 bytes): forwarded, padded.
    FrameSpec s = spec(kHostB, kHostA, L3::kIpv4, 26);
    s.size = 54;
    t.send(0, s, {1}, 3);
  }
  t.send(0, spec(0x0180C200000Eull, kHostA, L3::kOther, 0), {}, 0);  // LLDP: never forwarded
  {
    Frame bad = build_frame(spec(kHostB, kHostA, L3::kIpv4, 0));
    bad[14] = 0x55;  // IP version 5
    t.send_raw(0, bad);
  }
  {
    // One byte over what the 1500-byte MTU allows an untagged frame: oversize.
    FrameSpec s = spec(kHostB, kHostA, L3::kIpv4, 0);
    s.size = 1515;
    t.send_raw(0, build_frame(s));
  }
  t.send_raw(0, pfc_frame(kHostA));                      // consumed by RX
  t.send(0, spec(kHostA, kHostA, L3::kIpv4, 0), {}, 0);  // FIB says p0: hairpin dropped
  for (int i = 0; i < 40; ++i) {
    FrameSpec s = spec(kHostB, kHostA, L3::kIpv4, i % 2 ? 26 : 0);
    s.size = 64 + 37 * i;
    t.send(0, s, {1}, i % 2 ? 3 : 0);
  }
  // Into p1 and p2.
  for (int i = 0; i < 5; ++i) t.send(1, spec(kHostA, kHostB, L3::kIpv4, 26), {0}, 3);
  {
    FrameSpec s = spec(kBroadcast, kHostC, L3::kOther, 0);
    s.ether_type = 0x0806;
    t.send(2, s, {0, 1, 3}, 0);
  }
  {
    // A 42-byte ARP request, as Linux sends it unpadded: flooded, each copy padded.
    FrameSpec s = spec(kBroadcast, kHostB, L3::kOther, 0);
    s.ether_type = 0x0806;
    s.size = 42;
    t.send(1, s, {0, 2, 3}, 0);
  }
  return t;
}

std::string config_text(const fs::path& dir, const std::string& layout) {
  std::ostringstream c;
  c << "[switch]\nname = \"it_" << layout.substr(0, 4)
    << "\"\nlossless_priorities = [3]\nmbufs = 8191\n"
    << "[eal]\nargs = [\"--no-huge\", \"-m\", \"256\", \"--no-pci\", \"--no-telemetry\", "
       "\"--log-level=warning\","
    << " \"--file-prefix=fcsw_it_" << layout << "_" << getpid() << "\"]\n"
    << "[layout]\npreset = \"" << layout << "\"\n";
  for (int p = 0; p < 4; ++p) {
    c << "[[ports]]\nname = \"p" << p << "\"\ndevice = \"net_pcap" << p
      << ",rx_pcap=" << (dir / ("in" + std::to_string(p) + ".pcap")).string()
      << ",tx_pcap=" << (dir / ("out" + std::to_string(p) + ".pcap")).string() << "\"\n";
  }
  const char* hosts[] = {"0a", "0b", "0c", "0d"};
  for (int p = 0; p < 4; ++p)
    c << "[[fib]]\nmac = \"02:00:00:00:00:" << hosts[p] << "\"\nport = \"p" << p << "\"\n";
  return c.str();
}

// `"key":N` inside the JSON object of port `port`.
uint64_t port_counter(const std::string& json, const std::string& port, const std::string& key) {
  const size_t start = json.find("{\"name\":\"" + port + "\"");
  const size_t end = json.find("}}", start);
  const std::string object = json.substr(start, end - start);
  std::smatch m;
  if (!std::regex_search(object, m, std::regex("\"" + key + "\":([0-9]+)"))) return ~0ull;
  return std::stoull(m[1]);
}

class PcapForwarding : public ::testing::TestWithParam<std::string> {};

TEST_P(PcapForwarding, FramesReachTheRightPortsInOrderAndDropsAreNamed) {
  const std::string layout = GetParam();
  const fs::path dir =
      fs::temp_directory_path() / ("fcsw_it_" + layout + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const Traffic traffic = mixed_traffic();
  for (int p = 0; p < 4; ++p)
    write_pcap((dir / ("in" + std::to_string(p) + ".pcap")).string(), traffic.in[p]);
  std::ofstream(dir / "switch.toml") << config_text(dir, layout);

  const SwitchRun run = run_switch_until_idle(FCSWITCH_BINARY, dir.string());
  const std::string& log = run.log;
  ASSERT_EQ(run.status, 0) << log;

  for (int p = 0; p < 4; ++p) {
    const auto out = read_pcap((dir / ("out" + std::to_string(p) + ".pcap")).string());
    const auto& expected = traffic.expected.by_port.count(p)
                               ? traffic.expected.by_port.at(p)
                               : std::vector<std::pair<uint32_t, int>>{};
    // The same frames, byte for byte, each exactly once.
    std::multiset<uint32_t> got_sequences, want_sequences;
    for (const Frame& f : out) {
      const auto known = traffic.expected.sequence_of.find(f);
      ASSERT_NE(known, traffic.expected.sequence_of.end())
          << "port p" << p << ": a frame that was not sent, or changed (" << f.size()
          << " bytes, sequence " << sequence_of(f) << ")";
      got_sequences.insert(known->second);
    }
    for (const auto& [seq, prio] : expected) want_sequences.insert(seq);
    EXPECT_EQ(got_sequences, want_sequences) << "port p" << p << "\n" << log;
    // Within one (ingress port, priority), the order they were sent in. Frames from
    // different ingress ports may interleave in any order.
    std::map<uint32_t, int> priority_of(expected.begin(), expected.end());
    std::map<std::pair<int, int>, std::vector<uint32_t>> order;
    for (const Frame& f : out) {
      const uint32_t seq = traffic.expected.sequence_of.at(f);
      order[{traffic.expected.ingress_port.at(seq), priority_of[seq]}].push_back(seq);
    }
    for (const auto& [flow, seqs] : order)
      EXPECT_TRUE(std::is_sorted(seqs.begin(), seqs.end()))
          << "port p" << p << " from p" << flow.first << " priority " << flow.second;
  }

  std::ifstream json_in(dir / "report.json");
  const std::string json((std::istreambuf_iterator<char>(json_in)), {});
  EXPECT_EQ(port_counter(json, "p0", "runt"), 1u);
  EXPECT_EQ(port_counter(json, "p0", "malformed"), 1u);
  EXPECT_EQ(port_counter(json, "p0", "link_local"), 1u);
  EXPECT_EQ(port_counter(json, "p0", "same_port"), 1u);
  EXPECT_EQ(port_counter(json, "p0", "oversize"), 1u);
  EXPECT_EQ(port_counter(json, "p0", "control_frames"), 1u);
  EXPECT_EQ(port_counter(json, "p0", "rx_packets"), traffic.in[0].size());
  // The short ACK out of p1; the short ARP's copies out of p0, p2, p3.
  for (const char* port : {"p0", "p1", "p2", "p3"})
    EXPECT_EQ(port_counter(json, port, "short_frames_padded"), 1u) << port;
  for (const char* port : {"p0", "p1", "p2", "p3"}) {
    EXPECT_EQ(port_counter(json, port, "lossless_overflow"), 0u) << port;
    EXPECT_EQ(port_counter(json, port, "shutdown_flush"), 0u) << port;
  }
  // A flooded frame is admitted once per port it goes to: the report counts the copies, so
  // that admitted = data frames received + flood copies − FWD's drops.
  size_t deliveries = 0;
  std::set<uint64_t> delivered;
  for (const auto& [out_port, frames] : traffic.expected.by_port)
    for (const auto& [seq, prio] : frames) {
      ++deliveries;
      delivered.insert(static_cast<uint64_t>(seq));
    }
  std::smatch copies;
  ASSERT_TRUE(std::regex_search(json, copies, std::regex("\"flood_copies\":([0-9]+)")));
  EXPECT_EQ(std::stoull(copies[1]), deliveries - delivered.size());
  // Classification on the datapath: per priority, what each ingress port admitted and what
  // each egress queue sent, against the table the traffic was built from.
  std::array<std::array<int, 8>, 4> admitted{}, sent{};
  for (const auto& [out_port, frames] : traffic.expected.by_port) {
    for (const auto& [seq, prio] : frames) {
      ++admitted[traffic.expected.ingress_port.at(seq)][prio];
      ++sent[out_port][prio];
    }
  }
  auto as_list = [](const std::array<int, 8>& counts, bool lossy_queue) {
    std::string text;
    for (int c : counts) text += (text.empty() ? "" : ",") + std::to_string(c);
    return lossy_queue ? text + ",0" : text;
  };
  for (int p = 0; p < 4; ++p) {
    const std::string port = "\"name\":\"p" + std::to_string(p) + "\"";
    const std::string object =
        json.substr(json.find(port), json.find("}}", json.find(port)) - json.find(port));
    EXPECT_NE(object.find("\"admitted_packets\":[" + as_list(admitted[p], false) + "]"),
              std::string::npos)
        << "p" << p << " admitted, want [" << as_list(admitted[p], false) << "]\n"
        << object;
    EXPECT_NE(object.find("\"tx_packets\":[" + as_list(sent[p], true) + "]"), std::string::npos)
        << "p" << p << " sent, want [" << as_list(sent[p], true) << "]\n"
        << object;
  }

  // Every byte FWD charged to an ingress (port, priority) was released by a TX task.
  const std::regex occupancy("\"ingress_occupancy_bytes\":\\[([0-9,]*)\\]");
  int ports_seen = 0;
  for (auto it = std::sregex_iterator(json.begin(), json.end(), occupancy);
       it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[1].str(), "0,0,0,0,0,0,0,0") << json;
    ++ports_seen;
  }
  EXPECT_EQ(ports_seen, 4);
  EXPECT_NE(json.find("\"mempool_in_use\":0,"), std::string::npos) << json;
  if (!HasFailure()) fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Layouts, PcapForwarding, ::testing::Values("compact", "testbed"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace fcswitch::traffic

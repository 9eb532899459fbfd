// tools/wireshark/fcswitch.lua under tshark (issue 19, item 3). Credit updates and GFC stage
// frames are the switch's own: fcswitch runs on net_pcap ports, a cbfc port and a gfc-buffer
// port (with a stage opcode of its own, and with its control EtherType moved to 0x88B5) write
// what they send to their TX pcaps. PABO shims are built with lib/wire (the datapath that
// bounces is being written), and so are Pyrrha's messages (issue 20: lib/wire only so far).
// Every decoded field is compared with what lib/wire's decoders read
// from the same bytes; good frames carry no malformed or warning expert info; short or wrong
// ones get the dissector's expert info, never a Lua error.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "command_output.h"
#include "frame_builder.h"
#include "pcap_file.h"
#include "switch_run.h"
#include "tshark_installed.h"
#include "wire/big_endian.h"
#include "wire/credit_frame.h"
#include "wire/ether_type.h"
#include "wire/frame_header.h"
#include "wire/local_experimental.h"
#include "wire/pabo_shim.h"
#include "wire/pfc_frame.h"
#include "wire/pyrrha_frame.h"
#include "wire/roce_cnp.h"

namespace fcswitch::traffic {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kHostA = 0x02000000000Aull;  // behind p0
constexpr uint64_t kHostB = 0x02000000000Bull;  // behind p1
constexpr uint64_t kP0Mac = 0x020000000100ull;  // p0's `mac`: the source of what p0 sends
constexpr uint8_t kLosslessDscp = 26;           // AF31: priority 3 (26 >> 3, the default map)
constexpr int kLosslessPriority = 3;

// tshark with the dissector from this tree, and HOME in the capture's own folder: neither an
// installed copy of it (~/.local/lib/wireshark/plugins, which would make this one a duplicate
// protocol) nor the user's preferences take part.
std::string tshark_command(const std::string& pcap, const std::string& options) {
  return "HOME=" + fs::path(pcap).parent_path().string() +
         " tshark -n -X lua_script:" FCSWITCH_DISSECTOR " " + options + " -r " + pcap;
}

// One row per frame: the fields asked for, each field's occurrences joined by ','.
using Row = std::vector<std::string>;

std::vector<Row> tshark_fields(const std::string& pcap, const std::vector<std::string>& fields,
                               const std::string& options = "") {
  std::string command = tshark_command(pcap, options) + " -T fields -E separator='|'";
  for (const std::string& field : fields) command += " -e " + field;
  std::istringstream lines(command_output(command + " 2>/dev/null"));
  std::vector<Row> rows;
  for (std::string line; std::getline(lines, line);) {
    Row row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, '|');) row.push_back(cell);
    row.resize(fields.size());  // getline drops empty cells at the end
    rows.push_back(row);
  }
  return rows;
}

// The numbers of the frames `filter` selects, "2,5,6".
std::string frames_matching(const std::string& pcap, const std::string& filter,
                            const std::string& options = "") {
  std::istringstream lines(command_output(tshark_command(pcap, options) + " -Y '" + filter +
                                          "' -T fields -e frame.number 2>/dev/null"));
  std::string numbers;
  for (std::string line; std::getline(lines, line);) numbers += (numbers.empty() ? "" : ",") + line;
  return numbers;
}

// Frames Wireshark finds malformed, or flags at warning or worse: none in a good capture. MAC
// names resolved, as Wireshark's GUI does by default (01:80:c2:00:00:01 has one).
std::string frames_with_warnings(const std::string& pcap, const std::string& options = "") {
  return frames_matching(pcap, "_ws.malformed || _ws.expert.severity >= warning",
                         "-N m " + options);
}

// Everything tshark prints with the whole tree, stderr included: where a Lua error shows.
std::string tshark_verbose(const std::string& pcap, const std::string& options = "") {
  return command_output(tshark_command(pcap, options) + " -V 2>&1");
}

template <typename T, size_t N>
std::string joined(const std::array<T, N>& values) {
  std::string out;
  for (size_t i = 0; i < N; ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out;
}

bool is_local_experimental(const Frame& f, uint8_t subtype) {
  return f.size() > 14 && wire::load_be16(f.data() + 12) == wire::kEtherTypeLocalExperimental1 &&
         f[14] == subtype;
}

// --- The switch ---

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("fcsw_ws_{}_{}", name, getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string pcap_path(const fs::path& dir, const std::string& what, int port) {
  return (dir / fmt::format("{}{}.pcap", what, port)).string();
}

// Two net_pcap ports: p0 (host A's) runs `flow_control` with `p0_keys`, p1 (host B's) has
// `p1_keys`. Priority 3 is lossless, B_m = 200 KB.
std::string switch_toml(const fs::path& dir, const std::string& name,
                        const std::string& flow_control, const std::string& p0_keys,
                        const std::string& p1_keys) {
  return fmt::format(
      R"([switch]
name = "{name}"
lossless_priorities = [3]
mbufs = 4095
[eal]
args = ["--no-huge", "-m", "256", "--no-pci", "--no-telemetry", "--log-level=warning",
        "--file-prefix=fcsw_ws_{name}_{pid}"]
[buffer]
lossless_ingress = "200KB"
{flow_control}
[[ports]]
name = "p0"
device = "net_pcap0,rx_pcap={in0},tx_pcap={out0}"
mac = "02:00:00:00:01:00"
{p0_keys}
[[ports]]
name = "p1"
device = "net_pcap1,rx_pcap={in1},tx_pcap={out1}"
mac = "02:00:00:00:01:01"
{p1_keys}
[[fib]]
mac = "02:00:00:00:00:0a"
port = "p0"
[[fib]]
mac = "02:00:00:00:00:0b"
port = "p1"
)",
      fmt::arg("name", name), fmt::arg("pid", getpid()), fmt::arg("flow_control", flow_control),
      fmt::arg("p0_keys", p0_keys), fmt::arg("p1_keys", p1_keys),
      fmt::arg("in0", pcap_path(dir, "in", 0)), fmt::arg("out0", pcap_path(dir, "out", 0)),
      fmt::arg("in1", pcap_path(dir, "in", 1)), fmt::arg("out1", pcap_path(dir, "out", 1)));
}

// Runs fcswitch on `toml` with in0/in1.pcap of `dir` until nothing has moved for 300 ms.
void run_switch(const fs::path& dir, const std::string& toml) {
  std::ofstream(dir / "switch.toml") << toml;
  const SwitchRun run = run_switch_until_idle(FCSWITCH_BINARY, dir.string());
  ASSERT_EQ(run.status, 0) << run.log;
}

// `count` lossless frames of `bytes` from `src` to `dst`.
std::vector<Frame> lossless_frames(uint64_t src, uint64_t dst, int count, uint32_t bytes) {
  std::vector<Frame> frames;
  for (int i = 0; i < count; ++i) {
    FrameSpec s;
    s.dst = dst;
    s.src = src;
    s.dscp = kLosslessDscp;
    s.sequence = static_cast<uint32_t>(i + 1);
    s.size = bytes;
    frames.push_back(build_frame(s));
  }
  return frames;
}

// --- Credit updates ---

const std::vector<std::string> kCreditFields = {
    "fcswitch.credit",          "fcswitch.credit.version",  "fcswitch.credit.entry_mask",
    "fcswitch.credit.priority", "fcswitch.credit.valid",    "fcswitch.credit.fctbs",
    "fcswitch.credit.fccl",     "fcswitch.credit.p3.fctbs", "fcswitch.credit.p3.fccl"};

// Each frame of `pcap` as tshark decodes it against decode_credit on its bytes: every credit
// update field for field, nothing of ours on any other frame. Returns the decoded updates.
std::vector<wire::CreditFrame> expect_credit_frames_decoded(const std::string& pcap) {
  const std::vector<Frame> frames = read_pcap(pcap);
  const std::vector<Row> rows = tshark_fields(pcap, kCreditFields);
  EXPECT_EQ(rows.size(), frames.size()) << "tshark could not read " << pcap;
  std::vector<wire::CreditFrame> credits;
  for (size_t i = 0; i < std::min(rows.size(), frames.size()); ++i) {
    const Frame& f = frames[i];
    if (!is_local_experimental(f, static_cast<uint8_t>(wire::LocalSubtype::kCredit))) {
      EXPECT_EQ(rows[i], Row(kCreditFields.size())) << "frame " << i + 1 << " is no credit update";
      continue;
    }
    const wire::CreditDecodeResult decoded = wire::decode_credit(f.data(), f.size());
    EXPECT_EQ(decoded.status, wire::ControlDecodeStatus::kOk) << "frame " << i + 1;
    const wire::CreditFrame& c = decoded.frame;
    std::array<uint32_t, 8> fctbs, fccl;
    std::array<int, 8> valid;
    for (int p = 0; p < 8; ++p) {
      fctbs[p] = c.entry[p].fctbs;
      fccl[p] = c.entry[p].fccl;
      valid[p] = (c.entry_mask >> p) & 1;
    }
    const Row want = {"1",  // FT_NONE subtree present
                      std::to_string(wire::kCreditFrameVersion),
                      fmt::format("0x{:02x}", c.entry_mask),
                      "0,1,2,3,4,5,6,7",
                      joined(valid),
                      joined(fctbs),
                      joined(fccl),
                      std::to_string(c.entry[kLosslessPriority].fctbs),
                      std::to_string(c.entry[kLosslessPriority].fccl)};
    EXPECT_EQ(rows[i], want) << "frame " << i + 1;
    credits.push_back(c);
  }
  return credits;
}

// A cbfc port's credit updates: p0 grants host A credits for what A sends it, and spends the
// credits A granted it (in A's credit update, first in p0's input) on B's frames to A, so both
// FCCL and FCTBS move. A 500 µs period keeps the capture to a few hundred updates.
TEST(WiresharkDissector, CreditUpdatesTheSwitchSentDecodeAsLibWireReadsThem) {
  ASSERT_TRUE(tshark_installed());
  const fs::path dir = fresh_dir("cbfc");
  wire::CreditFrame grant{wire::MacAddress{kHostA}, 1u << kLosslessPriority, {}};
  grant.entry[kLosslessPriority].fccl = 1'000'000;
  Frame grant_bytes(wire::kCreditFrameBytes);
  wire::encode_credit(grant, grant_bytes.data());
  std::vector<Frame> in0 = {grant_bytes};
  for (const Frame& f : lossless_frames(kHostA, kHostB, 200, 1000)) in0.push_back(f);
  write_pcap(pcap_path(dir, "in", 0), in0);
  write_pcap(pcap_path(dir, "in", 1), lossless_frames(kHostB, kHostA, 200, 700));
  ASSERT_NO_FATAL_FAILURE(run_switch(
      dir,
      switch_toml(dir, "cbfc", "[flow_control]\nengine = \"cbfc\"\ncbfc = { period = \"500us\" }",
                  "", "[ports.flow_control]\nengine = \"none\"")));

  const std::string out0 = pcap_path(dir, "out", 0);
  const std::vector<wire::CreditFrame> credits = expect_credit_frames_decoded(out0);
  ASSERT_GE(credits.size(), 2u);
  uint32_t max_fctbs = 0, max_fccl = 0;
  for (const wire::CreditFrame& c : credits) {
    EXPECT_EQ(c.source, wire::MacAddress{kP0Mac});
    max_fctbs = std::max(max_fctbs, c.entry[kLosslessPriority].fctbs);
    max_fccl = std::max(max_fccl, c.entry[kLosslessPriority].fccl);
  }
  fmt::print("p0 sent {} credit updates: FCTBS up to {}, FCCL up to {} blocks\n", credits.size(),
             max_fctbs, max_fccl);
  // The fields came from a run: B's 700-byte frames are 11 blocks each, the buffer 3125.
  EXPECT_GT(max_fctbs, 0u);
  EXPECT_GT(max_fccl, 200'000u / wire::kCreditBlockBytes);
  // A filter can name one priority's entry.
  EXPECT_NE(frames_matching(out0, "fcswitch.credit.p3.fccl > 0"), "");
  EXPECT_EQ(frames_with_warnings(out0), "");
  EXPECT_EQ(frames_with_warnings(pcap_path(dir, "out", 1)), "");
  fs::remove_all(dir);
}

// --- GFC stage frames ---

struct StageCase {
  const char* name;
  uint16_t control_ether_type;
  uint16_t stage_opcode;
};

void PrintTo(const StageCase& c, std::ostream* out) {
  *out << c.name;
}

class WiresharkStageFrames : public ::testing::TestWithParam<StageCase> {};

// The tshark options a capture of this port needs: under 0x8808 the dissector takes only the
// opcode it is told of (plain PFC stays Wireshark's own).
std::string stage_options(const StageCase& c) {
  return c.control_ether_type == wire::kEtherTypeMacControl
             ? fmt::format("-o fcswitch.stage_opcode:0x{:04x}", c.stage_opcode)
             : "";
}

// Host A overruns p0 (at pcap replay speed) towards p1, paced at 100 Mb/s: p0's lossless ingress
// occupancy climbs through the stage thresholds (B_1 = 100 KB of B_m = 200 KB, on B_top = B_m −
// 34 × 1518 for a frame and 33 committed past TX's gate: 100000, 124194, 136291 bytes...; the
// paper's, on B_m: 100, 150, 175 KB) and, once p1 drains it, back to stage 0. Each stage frame p0
// sent is compared with decode_pfc on its bytes.
TEST_P(WiresharkStageFrames, StageFramesTheSwitchSentDecodeAsLibWireReadsThem) {
  ASSERT_TRUE(tshark_installed());
  const StageCase& c = GetParam();
  const fs::path dir = fresh_dir(c.name);
  write_pcap(pcap_path(dir, "in", 0), lossless_frames(kHostA, kHostB, 400, 1000));
  write_pcap(pcap_path(dir, "in", 1), {});
  const std::string flow_control = fmt::format(R"([flow_control]
engine = "gfc-buffer"
response_time = "2us"
stage_opcode = 0x{:04X}
gfc-buffer = {{ b1 = "100KB" }})",
                                               c.stage_opcode);
  ASSERT_NO_FATAL_FAILURE(run_switch(
      dir, switch_toml(dir, c.name, flow_control,
                       fmt::format("control_ether_type = 0x{:04X}", c.control_ether_type),
                       "rate_limit = \"100Mbps\"\n[ports.flow_control]\nengine = \"none\"")));

  const std::string out0 = pcap_path(dir, "out", 0);
  const std::vector<Frame> frames = read_pcap(out0);
  const std::vector<std::string> fields = {
      "fcswitch.stage",         "fcswitch.stage.opcode",   "fcswitch.stage.class_enable",
      "fcswitch.stage.enabled", "fcswitch.stage.priority", "fcswitch.stage.id",
      "fcswitch.stage.p3.id"};
  const std::vector<Row> rows = tshark_fields(out0, fields, stage_options(c));
  ASSERT_EQ(rows.size(), frames.size()) << "tshark could not read " << out0;
  ASSERT_GE(frames.size(), 2u) << "p0 sent no stage frames";
  int deepest = 0, last = -1;
  std::string sequence;
  for (size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    ASSERT_GE(f.size(), 14u);
    // p0 forwards nothing (no traffic is for A): all it sends is feedback.
    EXPECT_EQ(wire::load_be16(f.data() + 12), c.control_ether_type) << "frame " << i + 1;
    const wire::PfcDecodeResult decoded = wire::decode_pfc(f.data(), f.size(), c.stage_opcode);
    ASSERT_EQ(decoded.status, wire::ControlDecodeStatus::kOk) << "frame " << i + 1;
    const wire::PfcFrame& p = decoded.frame;
    EXPECT_EQ(p.opcode, c.stage_opcode);
    std::array<int, 8> enabled;
    for (int prio = 0; prio < 8; ++prio) enabled[prio] = (p.class_enable >> prio) & 1;
    const Row want = {"1",
                      fmt::format("0x{:04x}", p.opcode),
                      fmt::format("0x{:04x}", p.class_enable),
                      joined(enabled),
                      "0,1,2,3,4,5,6,7",
                      joined(p.time),
                      std::to_string(p.time[kLosslessPriority])};
    EXPECT_EQ(rows[i], want) << "frame " << i + 1;
    deepest = std::max(deepest, static_cast<int>(p.time[kLosslessPriority]));
    last = p.time[kLosslessPriority];
    sequence += (i ? " " : "") + std::to_string(last);
  }
  fmt::print("p0 sent {} stage frames, priority 3's stages: {}\n", frames.size(), sequence);
  // The ids came from a run: up through the stages, and back to 0 once drained.
  EXPECT_GE(deepest, 2);
  EXPECT_EQ(last, 0);
  EXPECT_EQ(frames_with_warnings(out0, stage_options(c)), "");
  if (c.control_ether_type == wire::kEtherTypeMacControl) {
    // Without the preference these are Wireshark's MAC Control frames of an unknown opcode.
    EXPECT_EQ(frames_matching(out0, "fcswitch"), "");
    EXPECT_EQ(frames_matching(out0, fmt::format("macc.opcode == 0x{:04x}", c.stage_opcode)),
              frames_matching(out0, "frame"));
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    StageOpcodeAndControlEtherType, WiresharkStageFrames,
    ::testing::Values(StageCase{"opcode", wire::kEtherTypeMacControl, 0x0102},
                      StageCase{"pfc_88b5", wire::kEtherTypeLocalExperimental1, 0x0101},
                      StageCase{"opcode_88b5", wire::kEtherTypeLocalExperimental1, 0x0102}),
    [](const ::testing::TestParamInfo<StageCase>& info) { return std::string(info.param.name); });

// With a stage opcode set, the MAC Control frames that are not stage frames still go to
// Wireshark's own dissector; a moved control EtherType carries PFC's layout to us.
TEST(WiresharkDissector, HandsPfcAndPauseBackToWiresharkAndFollowsAMovedControlEtherType) {
  ASSERT_TRUE(tshark_installed());
  const fs::path dir = fresh_dir("macc");
  const wire::MacAddress source{kP0Mac};
  auto pfc = [&](uint16_t ether_type, uint16_t opcode, uint8_t vector, uint16_t time3) {
    wire::PfcFrame p{source, vector, {}, opcode};
    p.time[kLosslessPriority] = time3;
    Frame f(wire::kPfcFrameBytes);
    wire::encode_pfc(p, ether_type, f.data());
    return f;
  };
  const std::string path = (dir / "macc.pcap").string();
  write_pcap(path, {pfc(0x8808, wire::kPfcOpcode, 0x08, 0xFFFF),
                    pfc(0x8808, wire::kPauseOpcode, 0x00, 0x0000), pfc(0x8808, 0x0102, 0x08, 4),
                    pfc(0x88B6, wire::kPfcOpcode, 0x08, 5)});
  const std::vector<std::string> fields = {"macc.opcode", "macc.cbfc.enbv", "fcswitch.stage.opcode",
                                           "fcswitch.stage.p3.id"};
  EXPECT_EQ(tshark_fields(path, fields, "-o fcswitch.stage_opcode:0x0102"),
            (std::vector<Row>{{"0x0101", "0x0008", "", ""},
                              {"0x0001", "", "", ""},
                              {"", "", "0x0102", "4"},
                              {"", "", "", ""}}));
  EXPECT_EQ(tshark_fields(path, fields), (std::vector<Row>{{"0x0101", "0x0008", "", ""},
                                                           {"0x0001", "", "", ""},
                                                           {"0x0102", "", "", ""},
                                                           {"", "", "", ""}}));
  EXPECT_EQ(tshark_fields(path, fields, "-o fcswitch.control_ether_type:0x88B6"),
            (std::vector<Row>{{"0x0101", "0x0008", "", ""},
                              {"0x0001", "", "", ""},
                              {"0x0102", "", "", ""},
                              {"", "", "0x0101", "5"}}));
  fs::remove_all(dir);
}

// --- PABO's shim ---

uint16_t ipv4_header_checksum(const uint8_t* header) {
  uint32_t sum = 0;  // RFC 791: one's complement of the one's-complement sum of the words
  for (int i = 0; i < 20; i += 2) sum += wire::load_be16(header + i);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

// A UDP datagram from 10.0.0.1:4000 to 10.0.0.2:`udp_port`, `bytes` long, optionally behind
// an 802.1Q tag with `pcp`.
Frame ipv4_udp_frame(std::optional<uint8_t> pcp, uint16_t udp_port, uint32_t bytes) {
  FrameSpec s;
  s.dst = kHostB;
  s.src = kHostA;
  s.vlan_pcp = pcp;
  s.dscp = kLosslessDscp;
  s.size = bytes;
  Frame f = build_frame(s);
  uint8_t* ip = f.data() + (pcp ? 18 : 14);
  ip[9] = 17;  // UDP
  const uint8_t addresses[8] = {10, 0, 0, 1, 10, 0, 0, 2};
  std::copy(addresses, addresses + 8, ip + 12);
  wire::store_be16(ip + 10, 0);
  wire::store_be16(ip + 10, ipv4_header_checksum(ip));
  uint8_t* udp = ip + 20;
  wire::store_be16(udp, 4000);
  wire::store_be16(udp + 2, udp_port);
  wire::store_be16(udp + 4, static_cast<uint16_t>(f.data() + f.size() - udp));
  wire::store_be16(udp + 6, 0);  // no checksum (RFC 768)
  return f;
}

// `frame` with a PABO shim inserted at `shim_offset` by lib/wire, as a bouncing switch does.
Frame with_pabo_shim(const Frame& frame, size_t shim_offset, const wire::PaboShim& fields) {
  Frame out(wire::kPaboShimBytes + frame.size());
  std::copy(frame.begin(), frame.end(), out.begin() + wire::kPaboShimBytes);
  wire::insert_pabo_shim(out.data() + wire::kPaboShimBytes, shim_offset, fields);
  return out;
}

// The source address of the IPv4 header at `ip`, as tshark prints it.
std::string ipv4_source(const uint8_t* ip) {
  return fmt::format("{}.{}.{}.{}", ip[12], ip[13], ip[14], ip[15]);
}

// Each frame of `pcap` that carries a PABO shim, as tshark decodes it against what
// parse_frame_header and read_pabo_shim read: the shim's fields, and the IP/UDP beneath it.
// Returns how many frames had a shim.
size_t expect_pabo_frames_decoded(const std::string& pcap) {
  const std::vector<Frame> frames = read_pcap(pcap);
  const std::vector<std::string> fields = {"fcswitch.pabo",
                                           "fcswitch.pabo.version",
                                           "fcswitch.pabo.bounces",
                                           "fcswitch.pabo.distance",
                                           "fcswitch.pabo.max_distance",
                                           "fcswitch.pabo.hops",
                                           "fcswitch.pabo.ethertype",
                                           "vlan.id",
                                           "ip.src",
                                           "udp.dstport"};
  const std::vector<Row> rows = tshark_fields(pcap, fields);
  EXPECT_EQ(rows.size(), frames.size()) << "tshark could not read " << pcap;
  size_t shims = 0;
  for (size_t i = 0; i < std::min(rows.size(), frames.size()); ++i) {
    const wire::FrameHeader h = wire::parse_frame_header(frames[i].data(), frames[i].size());
    if (!h.has_pabo_shim()) {
      EXPECT_EQ(rows[i][0], "") << "frame " << i + 1 << " has no PABO shim";
      continue;
    }
    ++shims;
    EXPECT_EQ(h.status, wire::FrameStatus::kOk) << "frame " << i + 1;
    const wire::PaboShim s = wire::read_pabo_shim(frames[i].data() + h.pabo_offset);
    const bool udp = h.l3 == wire::L3Kind::kIpv4 && frames[i][h.l3_offset + 9] == 17;
    const Row want = {
        "1",
        std::to_string(wire::kPaboShimVersion),
        std::to_string(s.bounces),
        std::to_string(s.distance),
        std::to_string(s.max_distance),
        std::to_string(s.hops),
        fmt::format("0x{:04x}", h.ether_type),
        h.has_vlan ? std::to_string(h.vlan_id) : "",
        h.l3 == wire::L3Kind::kIpv4 ? ipv4_source(frames[i].data() + h.l3_offset) : "",
        udp ? std::to_string(wire::load_be16(frames[i].data() + h.l3_offset + 22)) : ""};
    EXPECT_EQ(rows[i], want) << "frame " << i + 1;
  }
  return shims;
}

TEST(WiresharkDissector, PaboShimsDecodeAsLibWireReadsThemWithIpAndUdpBeneath) {
  ASSERT_TRUE(tshark_installed());
  const fs::path dir = fresh_dir("pabo");
  FrameSpec not_ip;
  not_ip.dst = kHostB;
  not_ip.src = kHostA;
  not_ip.l3 = FrameSpec::L3::kOther;
  not_ip.size = 80;
  const std::vector<Frame> frames = {
      with_pabo_shim(ipv4_udp_frame(std::nullopt, 5001, 100), 12, {1, 1, 1, 1}),
      with_pabo_shim(ipv4_udp_frame(3, 5002, 200), 16, {3, 2, 3, 7}),
      // Saturated counters (wire/pabo_shim.h: they stop at their maximum).
      with_pabo_shim(ipv4_udp_frame(std::nullopt, 5003, 1514), 12, {65535, 255, 255, 65535}),
      // Not IP beneath: Wireshark's data.
      with_pabo_shim(build_frame(not_ip), 12, {2, 0, 1, 4}),
      // Never bounced: no shim, nothing of ours.
      ipv4_udp_frame(std::nullopt, 5004, 120),
  };
  const std::string path = (dir / "pabo.pcap").string();
  write_pcap(path, frames);
  EXPECT_EQ(expect_pabo_frames_decoded(path), 4u);
  EXPECT_EQ(frames_with_warnings(path), "");
  // The switch's own bounces: priority-0 frames into p0 for host B behind a 20 Mb/s p1 fill
  // its 8-packet normal sub-queue, and the rest go back out of p0 (host A's port), n_p = 1.
  std::vector<Frame> in;
  for (int i = 0; i < 40; ++i) {
    const bool tagged = i % 2;
    Frame f = ipv4_udp_frame(tagged ? std::optional<uint8_t>(0) : std::nullopt,
                             static_cast<uint16_t>(6000 + i), 200);
    uint8_t* ip = f.data() + (tagged ? 18 : 14);
    ip[1] = 0;  // DSCP 0: priority 0, where PABO runs (not a lossless one)
    wire::store_be16(ip + 10, 0);
    wire::store_be16(ip + 10, ipv4_header_checksum(ip));
    in.push_back(f);
  }
  write_pcap(pcap_path(dir, "in", 0), in);
  write_pcap(pcap_path(dir, "in", 1), {});
  run_switch(dir, switch_toml(dir, "wspabo",
                              "[pabo]\npriorities = [0]\nnormal_capacity = 8\n"
                              "bounce_capacity = 64\nguard = 3\ntheta = 0.5",
                              "", "rate_limit = \"20Mbps\""));
  const size_t bounced = expect_pabo_frames_decoded(pcap_path(dir, "out", 0));
  EXPECT_GE(bounced, 1u) << "the switch bounced nothing";
  EXPECT_EQ(frames_with_warnings(pcap_path(dir, "out", 0)), "");
  fs::remove_all(dir);
}

// --- Pyrrha's messages ---

const std::vector<std::string> kPyrrhaFields = {"fcswitch.pyrrha",
                                                "fcswitch.pyrrha.version",
                                                "fcswitch.pyrrha.opcode",
                                                "fcswitch.pyrrha.priority",
                                                "fcswitch.pyrrha.hops",
                                                "fcswitch.pyrrha.root",
                                                "fcswitch.pyrrha.root.switch",
                                                "fcswitch.pyrrha.root.port",
                                                "fcswitch.pyrrha.old_root",
                                                "fcswitch.pyrrha.old_root.switch",
                                                "fcswitch.pyrrha.old_root.port",
                                                "eth.src"};

std::string root_text(const wire::PyrrhaRoot& root) {
  return fmt::format("{}:{}", root.switch_id, root.port_id);
}

Frame pyrrha_frame(const wire::PyrrhaFrame& message) {
  Frame f(wire::kPyrrhaFrameBytes);
  wire::encode_pyrrha(message, f.data());
  return f;
}

// Every message built with lib/wire, as tshark decodes it against decode_pyrrha on its bytes:
// the opcode, priority, hops, the root as switch:port and, in MERGE only, the old root.
TEST(WiresharkDissector, PyrrhaMessagesDecodeAsLibWireReadsThem) {
  ASSERT_TRUE(tshark_installed());
  const fs::path dir = fresh_dir("pyrrha");
  const wire::MacAddress source{kP0Mac};
  using Op = wire::PyrrhaOpcode;
  const std::vector<wire::PyrrhaFrame> messages = {
      {source, Op::kPause, 3, 1, {7, 3}, {}},  // the root's own PAUSE
      {source, Op::kPause, 3, 2, {7, 3}, {}},  // relayed one hop further up
      {source, Op::kResume, 3, 0, {7, 3}, {}},
      {source, Op::kMerge, 5, 2, {0x0102'0304, 0x0506}, {0xA0B0'C0D0, 0xE0F0}},
      {source, Op::kDealloc, 0, 0, {4'294'967'295u, 65535}, {}},  // the largest ids
      {wire::MacAddress{kHostB}, Op::kPause, 7, 255, {8000, 0}, {}},
  };
  std::vector<Frame> frames;
  for (const wire::PyrrhaFrame& m : messages) frames.push_back(pyrrha_frame(m));
  // Unpadded, as a software sender may send it: the fields are whole.
  Frame unpadded = pyrrha_frame({source, Op::kMerge, 1, 1, {12, 1}, {11, 4}});
  unpadded.resize(wire::kPyrrhaPayloadEndBytes);
  frames.push_back(unpadded);
  const std::string path = (dir / "pyrrha.pcap").string();
  write_pcap(path, frames);

  const std::vector<Row> rows = tshark_fields(path, kPyrrhaFields);
  ASSERT_EQ(rows.size(), frames.size()) << "tshark could not read " << path;
  for (size_t i = 0; i < frames.size(); ++i) {
    const wire::PyrrhaDecodeResult decoded =
        wire::decode_pyrrha(frames[i].data(), frames[i].size());
    ASSERT_EQ(decoded.status, wire::ControlDecodeStatus::kOk) << "frame " << i + 1;
    const wire::PyrrhaFrame& m = decoded.frame;
    if (i < messages.size()) {
      EXPECT_EQ(m, messages[i]) << "frame " << i + 1;
    }
    const bool merge = m.opcode == Op::kMerge;
    const Row want = {"1",
                      std::to_string(wire::kPyrrhaFrameVersion),
                      std::to_string(static_cast<int>(m.opcode)),
                      std::to_string(m.priority),
                      std::to_string(m.hops),
                      root_text(m.root),
                      std::to_string(m.root.switch_id),
                      std::to_string(m.root.port_id),
                      merge ? root_text(m.old_root) : "",
                      merge ? std::to_string(m.old_root.switch_id) : "",
                      merge ? std::to_string(m.old_root.port_id) : "",
                      m.source.to_string()};
    EXPECT_EQ(rows[i], want) << "frame " << i + 1;
  }
  // Filters name an opcode and a root; the Info column says what the message does.
  EXPECT_EQ(frames_matching(path, "fcswitch.pyrrha.opcode == 3"), "4,7");
  EXPECT_EQ(frames_matching(path, "fcswitch.pyrrha.root == \"7:3\""), "1,2,3");
  EXPECT_EQ(frames_matching(path, "fcswitch.pyrrha.old_root == \"2695938256:57584\""), "4");
  EXPECT_EQ(tshark_fields(path, {"_ws.col.Info"})[3],
            Row{"Pyrrha MERGE root 16909060:1286 (was 2695938256:57584), priority 5, hops 2"});
  EXPECT_EQ(frames_with_warnings(path), "");
  fs::remove_all(dir);
}

// Each refusal of decode_pyrrha is an expert info on the frame, never a Lua error.
TEST(WiresharkDissector, PyrrhaFramesLibWireRefusesGetTheirExpertInfo) {
  ASSERT_TRUE(tshark_installed());
  const fs::path dir = fresh_dir("pyrrha_bad");
  const Frame good =
      pyrrha_frame({wire::MacAddress{kP0Mac}, wire::PyrrhaOpcode::kPause, 3, 1, {7, 3}, {}});
  auto with = [&](size_t offset, uint8_t value) {
    Frame f = good;
    f[offset] = value;
    return f;
  };
  Frame cut = good, unicast = good;
  cut.resize(wire::kPyrrhaPayloadEndBytes - 1);
  wire::MacAddress{kHostB}.to_bytes(unicast.data());
  const std::vector<Frame> frames = {
      cut,             // 1: the old root's last byte missing
      with(15, 2),     // 2: a version we do not speak
      with(16, 0),     // 3: opcode 0
      with(16, 5),     // 4: opcode 5
      with(17, 8),     // 5: priority 8
      with(18, 0),     // 6: a PAUSE with hops 0
      unicast,         // 7: not to 01:80:C2:00:00:01
      with(19, 0xFF),  // 8: the reserved byte set: ignored, as decode_pyrrha does
  };
  const std::vector<wire::ControlDecodeStatus> statuses = {
      wire::ControlDecodeStatus::kTooShort,       wire::ControlDecodeStatus::kBadVersion,
      wire::ControlDecodeStatus::kUnknownOpcode,  wire::ControlDecodeStatus::kUnknownOpcode,
      wire::ControlDecodeStatus::kBadField,       wire::ControlDecodeStatus::kBadField,
      wire::ControlDecodeStatus::kBadDestination, wire::ControlDecodeStatus::kOk};
  for (size_t i = 0; i < frames.size(); ++i)
    EXPECT_EQ(wire::decode_pyrrha(frames[i].data(), frames[i].size()).status, statuses[i])
        << "frame " << i + 1;
  const std::string path = (dir / "pyrrha_bad.pcap").string();
  write_pcap(path, frames);
  const std::string options = "-N m";  // MAC names resolved, as in Wireshark's GUI
  EXPECT_EQ(frames_matching(path, "fcswitch.too_short", options), "1");
  EXPECT_EQ(frames_matching(path, "fcswitch.bad_version", options), "2");
  EXPECT_EQ(frames_matching(path, "fcswitch.unknown_opcode", options), "3,4");
  EXPECT_EQ(frames_matching(path, "fcswitch.bad_field", options), "5,6");
  EXPECT_EQ(frames_matching(path, "fcswitch.bad_destination", options), "7");
  EXPECT_EQ(frames_matching(path, "fcswitch.pyrrha", options), "1,2,3,4,5,6,7,8");
  EXPECT_EQ(frames_with_warnings(path), "1,2,3,4,5,6,7");
  const std::string verbose = tshark_verbose(path, options);
  EXPECT_EQ(verbose.find("Lua Error"), std::string::npos) << verbose;
  fs::remove_all(dir);
}

// --- Short and wrong frames ---

// DCQCN's CNPs (wire/roce_cnp.h) are RoCEv2: Wireshark's own InfiniBand dissector takes UDP
// 4791, and reads the BTH as we wrote it (its 4.0 calls opcode 0x81 "Unknown"; the BECN bit is
// in the byte it shows as reserved).
TEST(WiresharkDissector, CnpsDecodeAsRoceV2) {
  ASSERT_TRUE(tshark_installed());
  const fs::path dir = fresh_dir("cnp");
  Frame cnp(wire::kRoceCnpFrameBytes);
  wire::write_roce_cnp(cnp.data(), wire::RoceCnpSpec{.src_mac = wire::MacAddress{kHostB},
                                                     .dst_mac = wire::MacAddress{kHostA},
                                                     .src_ip = 0x0A000201,
                                                     .dst_ip = 0x0A000101,
                                                     .dscp = kLosslessDscp,
                                                     .udp_source_port = 50000,
                                                     .dest_qp = 0x12345});
  const std::string path = (dir / "cnp.pcap").string();
  write_pcap(path, {cnp});
  EXPECT_EQ(
      tshark_fields(
          path, {"ip.dsfield.dscp", "udp.dstport", "infiniband.bth.opcode", "infiniband.bth.p_key",
                 "infiniband.reserved", "infiniband.bth.destqp", "infiniband.bth.psn"}),
      (std::vector<Row>{{"26", "4791", "129", "65535", "40", "0x012345", "0"}}));  // 40: 0x40, BECN
  EXPECT_EQ(frames_with_warnings(path), "");
}

TEST(WiresharkDissector, ShortOrWrongFramesGetAnExpertInfoAndNeverALuaError) {
  ASSERT_TRUE(tshark_installed());
  const fs::path dir = fresh_dir("bad");
  wire::CreditFrame credit{wire::MacAddress{kP0Mac}, 0x08, {}};
  credit.entry[3] = {100, 3000};
  Frame good_credit(wire::kCreditFrameBytes);
  wire::encode_credit(credit, good_credit.data());
  auto cut = [](Frame f, size_t bytes) {
    f.resize(bytes);
    return f;
  };
  auto stage = [&](uint16_t ether_type, uint16_t opcode) {
    Frame f(wire::kPfcFrameBytes);
    wire::encode_pfc(wire::PfcFrame{wire::MacAddress{kP0Mac}, 0x08, {0, 0, 0, 2}, opcode},
                     ether_type, f.data());
    return f;
  };
  const Frame pabo = with_pabo_shim(ipv4_udp_frame(std::nullopt, 5001, 100), 12, {1, 1, 1, 1});
  Frame credit_v2 = good_credit, credit_unicast = good_credit, pabo_v2 = pabo;
  credit_v2[15] = 2;
  wire::MacAddress{kHostB}.to_bytes(credit_unicast.data());
  pabo_v2[15] = 2;
  Frame unknown_subtype = good_credit;
  unknown_subtype[14] = 0x42;
  const std::vector<Frame> frames = {
      cut(good_credit, 40),                      // 1: credit update cut in its entries
      cut(good_credit, 15),                      // 2: the subtype and nothing more
      cut(stage(0x88B5, 0x0101), 25),            // 3: PFC layout under 0x88B5, cut in its times
      cut(pabo, 20),                             // 4: PABO shim cut before its EtherType
      cut(pabo, 34),                             // 5: shim whole, IPv4 header cut: IP's problem
      credit_v2,                                 // 6: a version we do not speak
      pabo_v2,                                   // 7: likewise
      credit_unicast,                            // 8: not to 01:80:C2:00:00:01
      unknown_subtype,                           // 9: someone else's 0x88B5 frame
      cut(good_credit, 14),                      // 10: 0x88B5 and nothing after it
      cut(stage(0x8808, 0x0202), 16),            // 11: the stage opcode, cut after it
      stage(0x88B5, 0x0202),                     // 12: a stage opcode RX takes for data at 0x88B5
      cut(stage(0x8808, wire::kPfcOpcode), 18),  // 13: plain PFC, cut: Wireshark's to flag
  };
  const std::string path = (dir / "bad.pcap").string();
  write_pcap(path, frames);
  const std::string options = "-N m -o fcswitch.stage_opcode:0x0202";  // MAC names resolved
  EXPECT_EQ(frames_matching(path, "fcswitch.too_short", options), "1,2,3,4,11");
  EXPECT_EQ(frames_matching(path, "fcswitch.bad_version", options), "6,7");
  EXPECT_EQ(frames_matching(path, "fcswitch.bad_destination", options), "8");
  EXPECT_EQ(frames_matching(path, "fcswitch.stage_taken_for_data", options), "12");
  EXPECT_EQ(frames_matching(path, "fcswitch", options), "1,2,3,4,5,6,7,8,11,12");
  // Someone else's frame is data, and so is what follows a version we do not speak.
  EXPECT_EQ(frames_matching(path, "data", options), "6,7,9");
  const std::string verbose = tshark_verbose(path, options);
  EXPECT_EQ(verbose.find("Lua Error"), std::string::npos) << verbose;
  EXPECT_NE(verbose.find("Frame 13"), std::string::npos) << "tshark stopped early:\n" << verbose;
  // Wireshark flags what its own dissectors find wrong, under the shim (5) or instead of us (13).
  EXPECT_EQ(frames_matching(path, "_ws.malformed && !fcswitch.too_short", options), "5,13");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fcswitch::traffic

// [pyrrha]: the defaults (the paper's K_pause = 2, K_resume = 1 one-hop BDPs, 100 isolation
// queues), the one-hop BDP (the largest port rate × τ / 8 of the switch) and the thresholds it
// turns into bytes, the byte forms, and each refusal with its place, key, expected and found.
// tests/configs/bad/pyrrha_*.toml hold one file per refusal as well.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "config/config_error.h"
#include "config/pyrrha_config.h"
#include "config/switch_config.h"

namespace fcswitch::config {
namespace {

// One 100 Gb/s port with the default τ, GFC Eq. 6 counting the c = 33 frames its TX may have
// committed past its gate at each end (a burst of 32 and the one on the wire): 2 × 33 × 120 ns
// + 2 µs + 3 µs = 12.92 µs, a one-hop BDP of 100e9 × 12.92e-6 / 8 = 161 500 bytes (with the
// paper's Eq. 6, one frame: 5.24 µs and 65 500 bytes). `pyrrha` is the section's body. Every
// priority is lossless, as Pyrrha's must be.
std::string with_one_100g_port(const std::string& pyrrha) {
  return R"([[ports]]
name = "p0"
device = "net_null0"
rate = "100Gbps"
[pyrrha]
)" + pyrrha +
         "\n[switch]\nlossless_priorities = [0, 1, 2, 3, 4, 5, 6, 7]\n";
}

// The problems a file is refused with (none: it was accepted).
std::vector<std::string> problems(const std::string& text) {
  try {
    parse_switch_config(text, "p.toml");
  } catch (const ConfigError& error) {
    return error.problems();
  }
  return {};
}

TEST(PyrrhaConfig, NoSectionNoPyrrha) {
  const SwitchConfig c =
      parse_switch_config("[[ports]]\nname = \"a\"\ndevice = \"net_null0\"\n", "none.toml");
  EXPECT_FALSE(c.pyrrha.has_value());
}

TEST(PyrrhaConfig, DefaultsAreThePapersInOneHopBdps) {
  const SwitchConfig c = parse_switch_config(with_one_100g_port("priority = 2\n"), "d.toml");
  ASSERT_TRUE(c.pyrrha.has_value());
  const PyrrhaSettings& s = *c.pyrrha;
  EXPECT_EQ(s.priority, 2);
  EXPECT_EQ(s.switch_id, 0u);
  EXPECT_EQ(c.ports[0].flow_control.response_time_ns, 12'920u);  // Eq. 6, c = 33 (paper: 5240)
  EXPECT_EQ(s.one_hop_bdp_bytes, 161'500u);                      // (paper's τ: 65500)
  EXPECT_DOUBLE_EQ(s.k_pause_bdp, 2);
  EXPECT_DOUBLE_EQ(s.k_resume_bdp, 1);
  EXPECT_EQ(s.table.k_pause_bytes, 323'000u);   // (131000)
  EXPECT_EQ(s.table.k_resume_bytes, 161'500u);  // (65500)
  EXPECT_EQ(s.table.max_isolation_queues, 100);
  EXPECT_EQ(s.table.max_roots, 1024u);
  EXPECT_EQ(s.stage_bytes, 4096u);
  EXPECT_EQ(pyrrha_params_problem(s.table), nullptr);
}

TEST(PyrrhaConfig, TheBdpIsTheLargestOverThePortsAndItsResponseTime) {
  // p0: 10 Gb/s × 200 µs / 8 = 250 000 bytes; p1: 100 Gb/s × 12.92 µs / 8 = 161 500 bytes
  // (Eq. 6's default with c = 33 committed frames).
  const SwitchConfig c = parse_switch_config(R"(
[[ports]]
name = "p0"
device = "net_null0"
rate = "10Gbps"
[ports.flow_control]
response_time = "200us"
[[ports]]
name = "p1"
device = "net_null1"
rate = "100Gbps"
[pyrrha]
priority = 5
switch_id = 4294967295
k_pause = 1.5
k_resume = 0.5
max_isolation_queues = 4096
max_roots = 1000000
stage_bytes = "16MiB"
[switch]
lossless_priorities = [5]
)",
                                             "bdp.toml");
  const PyrrhaSettings& s = *c.pyrrha;
  EXPECT_EQ(s.one_hop_bdp_bytes, 250'000u);
  EXPECT_EQ(s.table.k_pause_bytes, 375'000u);
  EXPECT_EQ(s.table.k_resume_bytes, 125'000u);
  EXPECT_DOUBLE_EQ(s.k_pause_bdp, 1.5);
  EXPECT_DOUBLE_EQ(s.k_resume_bdp, 0.5);
  EXPECT_EQ(s.switch_id, 4'294'967'295u);
  EXPECT_EQ(s.table.max_isolation_queues, 4096);
  EXPECT_EQ(s.table.max_roots, 1'000'000u);
  EXPECT_EQ(s.stage_bytes, 16u << 20);
}

TEST(PyrrhaConfig, BdpAndThresholdsRoundUp) {
  // 1 Gb/s × 1001 ns = 1001 bits: 125.125 bytes, so 126; 1.1 × 126 = 138.6, so 139.
  const SwitchConfig c = parse_switch_config(R"(
[[ports]]
name = "p0"
device = "net_null0"
rate = "1Gbps"
[ports.flow_control]
response_time = 1001
[pyrrha]
priority = 0
k_pause = 1.1
k_resume = 0.001
[switch]
lossless_priorities = [0]
)",
                                             "round.toml");
  EXPECT_EQ(c.pyrrha->one_hop_bdp_bytes, 126u);
  EXPECT_EQ(c.pyrrha->table.k_pause_bytes, 139u);
  EXPECT_EQ(c.pyrrha->table.k_resume_bytes, 1u) << "0.126 bytes: at least one";
}

TEST(PyrrhaConfig, BdpsToBytesIgnoresBinaryNoiseButRoundsUpRealFractions) {
  EXPECT_EQ(bdps_to_bytes(1.1, 1000), 1100u) << "1.1 × 1000 is 1100.0000000000002 in binary";
  EXPECT_EQ(bdps_to_bytes(0.3, 10), 3u) << "0.30000000000000004 × 10";
  EXPECT_EQ(bdps_to_bytes(0.5, 65'501), 32'751u);
  EXPECT_EQ(bdps_to_bytes(2, 65'500), 131'000u);
  EXPECT_EQ(bdps_to_bytes(1e-6, 1000), 1u);
  EXPECT_EQ(bdps_to_bytes(2, 0), 1u);
  // The largest a config allows: 1e6 BDPs of 400 Gb/s × 60 s.
  EXPECT_EQ(bdps_to_bytes(1e6, 3'000'000'000'000), 3'000'000'000'000'000'000u);
}

TEST(PyrrhaConfig, LargestBdpDoesNotOverflowAtTheLargestRateAndResponseTime) {
  SwitchConfig c;
  c.ports.resize(2);
  c.ports[0].rate_bps = 400'000'000'000;
  c.ports[0].flow_control.response_time_ns = 60'000'000'000;  // 2.4e22 bit·ns
  c.ports[1].rate_bps = 10'000'000'000;
  c.ports[1].flow_control.response_time_ns = 7'400;
  EXPECT_EQ(largest_one_hop_bdp_bytes(c), 3'000'000'000'000u);
  EXPECT_EQ(largest_one_hop_bdp_bytes(SwitchConfig{}), 0u);
}

TEST(PyrrhaConfig, ThresholdsMayBeGivenInBytes) {
  const SwitchConfig c = parse_switch_config(
      with_one_100g_port("priority = 1\nk_pause_bytes = \"200KB\"\nk_resume_bytes = 150000\n"),
      "bytes.toml");
  const PyrrhaSettings& s = *c.pyrrha;
  EXPECT_EQ(s.table.k_pause_bytes, 200'000u);
  EXPECT_EQ(s.table.k_resume_bytes, 150'000u);
  EXPECT_DOUBLE_EQ(s.k_pause_bdp, 0) << "0: given in bytes";
  EXPECT_DOUBLE_EQ(s.k_resume_bdp, 0);
  EXPECT_EQ(s.one_hop_bdp_bytes, 161'500u) << "computed for the log all the same";

  // One threshold in each form: 3 × 161 500 and 64 KiB.
  const SwitchConfig mixed = parse_switch_config(
      with_one_100g_port("priority = 1\nk_pause = 3\nk_resume_bytes = \"64KiB\"\n"), "mix.toml");
  EXPECT_EQ(mixed.pyrrha->table.k_pause_bytes, 484'500u);
  EXPECT_DOUBLE_EQ(mixed.pyrrha->k_pause_bdp, 3);
  EXPECT_EQ(mixed.pyrrha->table.k_resume_bytes, 65'536u);
  EXPECT_DOUBLE_EQ(mixed.pyrrha->k_resume_bdp, 0);
}

// Engine "none" on Pyrrha's priority where the others run PFC: Pyrrha replaces PFC there only.
TEST(PyrrhaConfig, AcceptsALosslessPriorityWhoseEngineIsNone) {
  const SwitchConfig c = parse_switch_config(R"(
[switch]
lossless_priorities = [3, 4]
[flow_control]
engine = "pfc"
[flow_control.priority.3]
engine = "none"
[[ports]]
name = "p0"
device = "net_null0"
[pyrrha]
priority = 3
)",
                                             "none.toml");
  EXPECT_EQ(c.pyrrha->priority, 3);
  EXPECT_EQ(c.ports[0].flow_control.priorities[3].engine, nullptr);
  ASSERT_NE(c.ports[0].flow_control.priorities[4].engine, nullptr);
}

// config/reference.toml shows [pyrrha] commented out (fcswitch cannot run it yet): its keys,
// uncommented, are read and give the documented defaults.
TEST(PyrrhaConfig, TheReferenceSectionIsReadAsDocumented) {
  std::ifstream in(std::string(FCSWITCH_SOURCE_DIR) + "/config/reference.toml");
  std::string line, section;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "# [pyrrha]") inside = true;
    if (!inside) continue;
    if (line.rfind("# ", 0) != 0) break;
    const std::string key = line.substr(2);
    if (key.rfind("#", 0) == 0 || key.rfind("k_pause_bytes", 0) == 0 ||
        key.rfind("k_resume_bytes", 0) == 0 || key.rfind("network", 0) == 0 ||
        key.rfind("node", 0) == 0)
      continue;  // a comment's continuation, or the other form of a threshold or of the paths
    section += key + "\n";
  }
  ASSERT_NE(section.find("max_isolation_queues"), std::string::npos) << section;
  const SwitchConfig c = parse_switch_config(
      "[[ports]]\nname = \"p0\"\ndevice = \"net_null0\"\nrate = \"100Gbps\"\n"
      "[[ports]]\nname = \"p1\"\ndevice = \"net_null1\"\nrate = \"100Gbps\"\n" +
          section + "\n[switch]\nlossless_priorities = [5]\n",
      "reference.toml");
  const PyrrhaSettings& s = *c.pyrrha;
  EXPECT_EQ(s.priority, 5);
  EXPECT_EQ(s.switch_id, 0u);
  EXPECT_EQ(s.table.k_pause_bytes, 323'000u);   // 2 × 161500 (paper's Eq. 6 τ: 131000)
  EXPECT_EQ(s.table.k_resume_bytes, 161'500u);  // (65500)
  EXPECT_EQ(s.table.max_isolation_queues, PyrrhaParams{}.max_isolation_queues);
  EXPECT_EQ(s.table.max_roots, PyrrhaParams{}.max_roots);
  EXPECT_EQ(s.stage_bytes, PyrrhaSettings{}.stage_bytes);
  EXPECT_EQ(s.host_ports, std::vector<int>{0});
  ASSERT_EQ(s.paths.size(), 1u);
  EXPECT_EQ(s.paths[0].egress, 1);
  ASSERT_EQ(s.paths[0].hops.size(), 2u);
  EXPECT_EQ(s.paths[0].hops[1].switch_id, 9u);
}

// `network` and `node` (the paths from a lab scenario, lab/pyrrha_network.h): the file is
// found beside the config, and their places are kept for the messages of the switch's start.
TEST(PyrrhaConfig, ANetworkIsFoundBesideTheConfig) {
  const SwitchConfig c = parse_switch_config(
      with_one_100g_port("priority = 0\nnetwork = \"lab/fat-tree-k4.toml\"\nnode = \"T1\""),
      "config/tor.toml");
  ASSERT_TRUE(c.pyrrha && c.pyrrha->network);
  EXPECT_EQ(c.pyrrha->network->file, "config/lab/fat-tree-k4.toml");
  EXPECT_EQ(c.pyrrha->network->node, "T1");
  EXPECT_EQ(c.pyrrha->network->file_place, "config/tor.toml:7:11");
  EXPECT_EQ(c.pyrrha->network->node_place, "config/tor.toml:8:8");
  EXPECT_EQ(problems(with_one_100g_port("priority = 0\nnode = \"T1\"")),
            std::vector<std::string>{"p.toml:7:8: pyrrha.node: expected node only beside network "
                                     "(the lab scenario it names a switch of), found \"T1\" "
                                     "with no network"});
}

TEST(PyrrhaConfig, RefusesAMissingOrOutOfRangePriority) {
  EXPECT_EQ(problems(with_one_100g_port("k_pause = 2\n")),
            std::vector<std::string>{
                "p.toml:5:1: pyrrha.priority: expected an integer in [0, 7], found nothing"});
  EXPECT_EQ(problems(with_one_100g_port("priority = 8\n")),
            std::vector<std::string>{
                "p.toml:6:12: pyrrha.priority: expected an integer in [0, 7], found integer 8"});
}

TEST(PyrrhaConfig, RefusesAPaboPriority) {
  EXPECT_EQ(problems(R"([[ports]]
name = "p0"
device = "net_null0"
[pabo]
priorities = [0, 2]
[pyrrha]
priority = 2
)"),
            (std::vector<std::string>{
                "p.toml:7:12: pyrrha.priority: expected a lossless priority ([switch] "
                "lossless_priorities): Pyrrha is flow control for a lossless class, found 2, not "
                "lossless",
                "p.toml:7:12: pyrrha.priority: expected a priority PABO does not bounce on: "
                "Pyrrha holds a root's packets upstream, PABO sends them back, found 2, one of "
                "[pabo] priorities"}));
}

TEST(PyrrhaConfig, RefusesAPriorityWithAFlowControlEngineNamingThePortAndEngine) {
  // p0 runs "none" on 3; p1 and p2 run PFC there, p1 first.
  EXPECT_EQ(problems(R"([switch]
lossless_priorities = [3]
[flow_control]
engine = "pfc"
[[ports]]
name = "p0"
device = "net_null0"
[ports.flow_control.priority.3]
engine = "none"
[[ports]]
name = "p1"
device = "net_null1"
[[ports]]
name = "p2"
device = "net_null2"
[pyrrha]
priority = 3
)"),
            std::vector<std::string>{
                "p.toml:17:12: pyrrha.priority: expected a priority whose flow-control engine is "
                "\"none\" on every port: Pyrrha replaces PFC on its priority, found 3: port p1 "
                "runs \"pfc\" (as do 1 other port)"});
}

TEST(PyrrhaConfig, RefusesTagger) {
  EXPECT_EQ(problems(R"([switch]
lossless_priorities = [3, 5]
[[ports]]
name = "p0"
device = "net_null0"
[tagger]
tags = { "1" = 3 }
[pyrrha]
priority = 5
)"),
            std::vector<std::string>{
                "p.toml:9:12: pyrrha.priority: expected no [tagger]: Tagger rewrites the queue a "
                "packet joins, so it would leave Pyrrha's queues or enter them at one hop and "
                "not the next, found [tagger] is set"});
}

TEST(PyrrhaConfig, RefusesQueueingOtherThanOutput) {
  for (const char* queueing : {"input-fair", "input-hol"}) {
    EXPECT_EQ(problems(std::string("[switch]\nqueueing = \"") + queueing +
                       "\"\nlossless_priorities = [0]\n[[ports]]\nname = \"p0\"\ndevice = "
                       "\"net_null0\"\n[pyrrha]\npriority = 0\n"),
              std::vector<std::string>{
                  std::string("p.toml:8:12: pyrrha.priority: expected [switch] queueing = "
                              "\"output\": a congestion root is an output queue above K_pause "
                              "(Pyrrha §4.1), found queueing = \"") +
                  queueing + "\""});
  }
}

TEST(PyrrhaConfig, RefusesBothFormsOfOneThreshold) {
  EXPECT_EQ(problems(with_one_100g_port("priority = 0\nk_pause = 2\nk_pause_bytes = \"200KB\"\n")),
            std::vector<std::string>{
                "p.toml:8:17: pyrrha.k_pause_bytes: expected either k_pause (one-hop BDPs) or "
                "k_pause_bytes (bytes), not both, found k_pause = 2 as well"});
  EXPECT_EQ(problems(with_one_100g_port("priority = 0\nk_resume_bytes = 1\nk_resume = 0.5\n")),
            std::vector<std::string>{
                "p.toml:7:18: pyrrha.k_resume_bytes: expected either k_resume (one-hop BDPs) or "
                "k_resume_bytes (bytes), not both, found k_resume = 0.5 as well"});
}

TEST(PyrrhaConfig, RefusesResumeNotBelowPauseAfterConversionNamingTheKey) {
  // K_resume = 161 500 bytes is one BDP: equal to K_pause = 1 BDP.
  EXPECT_EQ(problems(with_one_100g_port("priority = 0\nk_pause = 1\nk_resume_bytes = 161500\n")),
            std::vector<std::string>{
                "p.toml:8:18: pyrrha.k_resume_bytes: expected K_resume below K_pause "
                "(PAUSE above K_pause, RESUME below K_resume: Pyrrha §4.1, §4.3), found "
                "k_resume 161500 bytes and k_pause 161500 bytes (1 × the 161500-byte one-hop "
                "BDP)"});
  // 2.5 BDPs against the default K_pause of 2.
  EXPECT_EQ(problems(with_one_100g_port("priority = 0\nk_resume = 2.5\n")),
            std::vector<std::string>{
                "p.toml:7:12: pyrrha.k_resume: expected K_resume below K_pause (PAUSE above "
                "K_pause, RESUME below K_resume: Pyrrha §4.1, §4.3), found k_resume 403750 bytes "
                "(2.5 × the 161500-byte one-hop BDP) and k_pause 323000 bytes (2 × the "
                "161500-byte one-hop BDP)"});
  // K_pause lowered onto the default K_resume: pinned to the key the file gave.
  EXPECT_EQ(problems(with_one_100g_port("priority = 0\nk_pause_bytes = \"60KB\"\n")),
            std::vector<std::string>{
                "p.toml:7:17: pyrrha.k_pause_bytes: expected K_resume below K_pause "
                "(PAUSE above K_pause, RESUME below K_resume: Pyrrha §4.1, §4.3), found "
                "k_resume 161500 bytes (1 × the 161500-byte one-hop BDP) and k_pause 60000 "
                "bytes"});
}

TEST(PyrrhaConfig, RefusesValuesOutOfRange) {
  EXPECT_EQ(problems(with_one_100g_port(R"(priority = 0
switch_id = 4294967296
k_pause = 0
k_resume = -1
max_isolation_queues = 0
max_roots = 1000001
stage_bytes = 63
)")),
            (std::vector<std::string>{
                "p.toml:7:13: pyrrha.switch_id: expected an integer in [0, 4294967295], found "
                "integer 4294967296",
                "p.toml:8:11: pyrrha.k_pause: expected a number of one-hop BDPs > 0 (a queue "
                "pauses above it), found integer 0",
                "p.toml:9:12: pyrrha.k_resume: expected a number in [0, 1000000], found "
                "integer -1",
                "p.toml:10:24: pyrrha.max_isolation_queues: expected an integer in [1, 4096], "
                "found integer 0",
                "p.toml:11:13: pyrrha.max_roots: expected an integer in [1, 1000000], found "
                "integer 1000001",
                "p.toml:12:15: pyrrha.stage_bytes: expected bytes (integer, or a string such as "
                "\"750KB\", \"1MiB\") in [64, 16777216], found integer 63",
            }));
}

TEST(PyrrhaConfig, RefusesUnknownKeys) {
  EXPECT_EQ(problems(with_one_100g_port("priority = 0\nk_pause_bdp = 2\n")),
            std::vector<std::string>{"p.toml:7:1: pyrrha.k_pause_bdp: unknown key"});
}

TEST(PyrrhaConfig, RefusesALossyPriority) {
  const auto p = problems(R"([[ports]]
name = "p0"
device = "net_null0"
[pyrrha]
priority = 3
)");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("pyrrha.priority"), std::string::npos) << p[0];
  EXPECT_NE(p[0].find("a lossless priority"), std::string::npos) << p[0];
  EXPECT_NE(p[0].find("3, not lossless"), std::string::npos) << p[0];
}

TEST(PyrrhaConfig, EnabledFalseRunsWithoutIt) {
  // The PFC comparison of a Pyrrha scenario: the section stays, PFC takes the priority.
  const SwitchConfig c = parse_switch_config(R"([switch]
lossless_priorities = [3]
[flow_control]
engine = "pfc"
[[ports]]
name = "p0"
device = "net_null0"
[pyrrha]
priority = 3
enabled = false
)",
                                             "off.toml");
  EXPECT_FALSE(c.pyrrha.has_value());
}

// fcswitch's own onward paths (Pyrrha §4.2 on a testbed): a ToR whose uplink "up" reaches
// host 02:…:0b through switch 7's port 2, then switch 9's port 0; "h" faces a host.
constexpr char kTorWithPaths[] = R"([switch]
lossless_priorities = [3]
[[ports]]
name = "h"
device = "net_null0"
[[ports]]
name = "up"
device = "net_null1"
[pyrrha]
priority = 3
switch_id = 1
host_ports = ["h"]
[[pyrrha.paths]]
egress = "up"
to = "02:00:00:00:00:0b"
hops = ["7:2", "9:0"]
)";

TEST(PyrrhaConfig, PathsAndHostPortsAreReadByName) {
  const SwitchConfig c = parse_switch_config(kTorWithPaths, "tor.toml");
  ASSERT_TRUE(c.pyrrha.has_value());
  EXPECT_EQ(c.pyrrha->host_ports, std::vector<int>{0});
  ASSERT_EQ(c.pyrrha->paths.size(), 1u);
  const PyrrhaPath& path = c.pyrrha->paths[0];
  EXPECT_EQ(path.egress, 1);
  EXPECT_EQ(path.dst.value, 0x02'00'00'00'00'0Bull);
  ASSERT_EQ(path.hops.size(), 2u);
  EXPECT_EQ(path.hops[0].switch_id, 7u);
  EXPECT_EQ(path.hops[0].port, 2);
  EXPECT_EQ(path.hops[1].switch_id, 9u);
  EXPECT_EQ(path.hops[1].port, 0);
}

// Each refusal of the table, at its key: what was expected and what was found.
TEST(PyrrhaConfig, BadPathsAreRefusedAtTheirKey) {
  const auto refused = [](const std::string& from, const std::string& to) {
    std::string text = kTorWithPaths;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    return problems(text);
  };
  using Lines = std::vector<std::string>;
  EXPECT_EQ(refused(R"(host_ports = ["h"])", R"(host_ports = ["h", "x"])"),
            Lines{"p.toml:12:14: pyrrha.host_ports: expected names of ports in [[ports]], each "
                  "once, found string \"x\""});
  EXPECT_EQ(refused(R"(egress = "up")", R"(egress = "h")"),
            Lines{"p.toml:14:10: pyrrha.paths[0].egress: expected a port that does not face a "
                  "host (host_ports), found \"h\", one of host_ports"});
  EXPECT_EQ(refused(R"(egress = "up")", R"(egress = "nope")"),
            Lines{"p.toml:14:10: pyrrha.paths[0].egress: expected the name of a port in "
                  "[[ports]], found string \"nope\""});
  EXPECT_EQ(refused("02:00:00:00:00:0b", "01:00:5e:00:00:01"),
            Lines{"p.toml:15:6: pyrrha.paths[0].to: expected a unicast MAC address, found "
                  "string \"01:00:5e:00:00:01\""});
  EXPECT_EQ(refused(R"("9:0")", R"("9")"),
            Lines{"p.toml:16:8: pyrrha.paths[0].hops: expected \"SWITCH_ID:PORT\" for each hop "
                  "(a switch_id and its port's index in that switch's [[ports]]), found string "
                  "\"9\""});
  EXPECT_EQ(refused(R"("9:0")", R"("1:0")"),
            Lines{"p.toml:16:8: pyrrha.paths[0].hops: expected hops at other switches than this "
                  "one (switch_id), found string \"1:0\""});
  EXPECT_EQ(refused(R"(hops = ["7:2", "9:0"])", "hops = []"),
            Lines{"p.toml:16:8: pyrrha.paths[0].hops: expected 1 to 7 hops past this switch, "
                  "near to far, found 0 hops"});
  EXPECT_EQ(refused(R"(hops = ["7:2", "9:0"])",
                    "hops = [\"7:2\"]\n[[pyrrha.paths]]\negress = \"up\"\n"
                    "to = \"02:00:00:00:00:0b\"\nhops = [\"8:1\"]"),
            Lines{"p.toml:19:6: pyrrha.paths[1].to: expected one path per (egress, to), found "
                  "\"02:00:00:00:00:0b\" by \"up\" again"});
}

}  // namespace
}  // namespace fcswitch::config

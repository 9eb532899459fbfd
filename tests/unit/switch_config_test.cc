#include "config/switch_config.h"

#include <gtest/gtest.h>

#include "bad_config_files.h"
#include "config/config_error.h"
#include "config/cpu_list.h"
#include "config/quantity.h"
#include "fc/cbfc_engine.h"
#include "fc/pfc_engine.h"

namespace fcswitch::config {
namespace {

constexpr const char* kFullConfig = R"(
[switch]
name = "s1"
lossless_priorities = [3, 4]
mac_learning = false
mbufs = 32767
egress_queue_packets = 8192
queueing = "input-hol"
crossbar = "egress-round-robin"

[eal]
args = ["--no-huge", "-m", "512"]
cpus = "0-1"
idle_sleep = "20us"

[classify]
trust = "pcp"
default_priority = 1
dscp_to_priority = { "46" = 6, "24-31" = 4 }
pcp_to_priority = { "1" = 0 }

[buffer]
lossless_ingress = "1MB"
lossy_pool = "4MiB"
lossy_alpha = 0.5

[[ports]]
name = "p0"
device = "0000:03:00.0"
profile = "ixgbe-82599"
rate = "10Gbps"
mac = "02:00:00:00:01:00"
tx_descriptors = 64
tx_burst = 4
control_ether_type = 0x88B5
[ports.scheduler]
strict = [7, "lossy"]
weights = { "3" = 4, "4" = 2 }

[[ports]]
name = "p1"
device = "net_ring0"
rate = "1Gbps"
emulate_wire = true

[[fib]]
mac = "02:00:00:00:00:09"
port = "p1"

[layout]
preset = "custom"
lcores = [["rx:p0", "rx:p1"], ["fwd"], ["tx:p0", "tx:p1"]]
)";

TEST(SwitchConfig, ReadsEverySection) {
  const SwitchConfig c = parse_switch_config(kFullConfig, "full.toml");
  EXPECT_EQ(c.name, "s1");
  EXPECT_EQ(c.lossless_priorities, (1 << 3) | (1 << 4));
  EXPECT_FALSE(c.mac_learning);
  EXPECT_EQ(c.mbufs, 32767u);
  EXPECT_EQ(c.egress_queue_packets, 8192u);
  EXPECT_EQ(c.queueing, Queueing::kInputHol);
  EXPECT_EQ(c.crossbar, Crossbar::kEgressRoundRobin);
  EXPECT_EQ(c.eal.args, (std::vector<std::string>{"--no-huge", "-m", "512"}));
  EXPECT_EQ(c.eal.cpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(c.eal.idle_sleep_ns, 20'000u);
  EXPECT_FALSE(c.ports[0].emulate_wire);
  EXPECT_TRUE(c.ports[1].emulate_wire);
  EXPECT_EQ(c.priority_maps.trust, TrustMode::kPcp);
  EXPECT_EQ(c.priority_maps.default_priority, 1);
  EXPECT_EQ(c.priority_maps.dscp_to_priority[46], 6);
  EXPECT_EQ(c.priority_maps.dscp_to_priority[24], 4);
  EXPECT_EQ(c.priority_maps.dscp_to_priority[31], 4);
  EXPECT_EQ(c.priority_maps.dscp_to_priority[32], 4);  // standard: 32 >> 3
  EXPECT_EQ(c.priority_maps.dscp_to_priority[23], 2);
  EXPECT_EQ(c.priority_maps.pcp_to_priority[1], 0);
  EXPECT_EQ(c.buffer.lossless_ingress_bytes, 1'000'000u);
  EXPECT_EQ(c.buffer.lossy_pool_bytes, 4u << 20);
  EXPECT_EQ(c.buffer.lossy_alpha_1024, 512u);
  ASSERT_EQ(c.ports.size(), 2u);
  EXPECT_EQ(c.ports[0].profile, NicProfileKind::kIxgbe82599);
  EXPECT_EQ(c.ports[0].rate_bps, 10'000'000'000u);
  EXPECT_EQ(c.ports[0].mac->value, 0x020000000100ull);
  EXPECT_EQ(c.ports[0].tx_descriptors, 64);
  EXPECT_EQ(c.ports[0].tx_burst, 4);
  EXPECT_EQ(c.ports[0].control_ether_type, 0x88B5);
  EXPECT_EQ(c.ports[0].scheduler.strict_queues, (1 << 7) | (1 << kLossyQueue));
  EXPECT_EQ(c.ports[0].scheduler.weights[3], 4u);
  EXPECT_EQ(c.ports[0].scheduler.weights[4], 2u);
  EXPECT_EQ(c.ports[0].scheduler.weights[0], 1u);
  EXPECT_EQ(c.ports[1].profile, NicProfileKind::kAuto);
  ASSERT_EQ(c.fib.size(), 1u);
  EXPECT_EQ(c.fib[0].port, 1);
  ASSERT_EQ(c.lcores.size(), 3u);
  EXPECT_EQ(c.lcores[1], (std::vector<TaskRef>{{TaskKind::kFwd, -1}}));
  EXPECT_EQ(c.lcores[2][1], (TaskRef{TaskKind::kTx, 1}));
}

TEST(SwitchConfig, DefaultsAreTheDocumentedOnes) {
  const SwitchConfig c =
      parse_switch_config("[[ports]]\nname = \"a\"\ndevice = \"net_null0\"\n", "min.toml");
  EXPECT_EQ(c.name, "fcswitch");
  EXPECT_EQ(c.lossless_priorities, 0);
  EXPECT_TRUE(c.mac_learning);
  EXPECT_EQ(c.priority_maps.dscp_to_priority[46], 5);
  EXPECT_EQ(c.ports[0].rate_bps, 10'000'000'000u);
  EXPECT_EQ(c.ports[0].control_ether_type, 0x8808);
  EXPECT_EQ(c.ports[0].tx_burst, 32);
  EXPECT_EQ(c.queueing, Queueing::kOutput);
  EXPECT_EQ(c.crossbar, Crossbar::kInputTurns);
  EXPECT_EQ(c.layout_name, "compact");
  ASSERT_EQ(c.lcores.size(), 1u);
  EXPECT_EQ(c.lcores[0].size(), 3u);  // rx:a, fwd, tx:a on one lcore
}

// A FIB entry may name several ports: an ECMP group, hashed with the switch's ecmp_seed.
TEST(SwitchConfig, FibEntryMayBeAnEcmpGroup) {
  const SwitchConfig c = parse_switch_config(R"([switch]
ecmp_seed = 7
[[ports]]
name = "a"
device = "net_null0"
[[ports]]
name = "b"
device = "net_null1"
[[ports]]
name = "c"
device = "net_null2"
[[fib]]
mac = "02:00:00:00:00:01"
port = ["c", "a"]
[[fib]]
mac = "02:00:00:00:00:02"
port = ["b"]
)",
                                             "ecmp.toml");
  EXPECT_EQ(c.ecmp_seed, 7u);
  ASSERT_EQ(c.fib.size(), 2u);
  EXPECT_EQ(c.fib[0].group, (std::vector<int>{2, 0}));
  EXPECT_EQ(c.fib[0].port, 2);
  EXPECT_TRUE(c.fib[1].group.empty());  // one port: a plain entry
  EXPECT_EQ(c.fib[1].port, 1);
}

// The GFC testbed layout: RX and TX of each port on their own lcores and one FWD lcore,
// 9 for 4 ports.
TEST(SwitchConfig, TestbedLayoutHasTwoLcoresPerPortAndOneFwd) {
  const auto layout = testbed_layout(4);
  ASSERT_EQ(layout.size(), 9u);
  for (const auto& lcore : layout) EXPECT_EQ(lcore.size(), 1u);
  int fwd = 0;
  for (const auto& lcore : layout) fwd += lcore[0].kind == TaskKind::kFwd;
  EXPECT_EQ(fwd, 1);
}

TEST(CpuList, ItemsAndRangesWithinTheCpuSetAndNoGarbage) {
  std::string why;
  EXPECT_EQ(parse_cpu_list("0-3,8", why), (std::vector<int>{0, 1, 2, 3, 8}));
  EXPECT_EQ(parse_cpu_list("1023", why), (std::vector<int>{1023}));
  for (const char* bad : {"", ",", "-", "1,,2", "1-", "-3", "1024", "0-1000000000", "99999999999",
                          "3-1", "1,1", "0-2,2", " 1", "1a"})
    EXPECT_FALSE(parse_cpu_list(bad, why)) << bad;
  parse_cpu_list("0-2,2", why);
  EXPECT_EQ(why, "CPU 2 is listed twice");
}

TEST(Quantity, BytesAndRatesWithUnits) {
  EXPECT_EQ(parse_bytes("750KB"), 750'000u);
  EXPECT_EQ(parse_bytes("1MiB"), 1u << 20);
  EXPECT_EQ(parse_bytes("1.5 KiB"), 1536u);
  EXPECT_EQ(parse_bytes("42"), 42u);
  EXPECT_FALSE(parse_bytes("KB"));
  EXPECT_FALSE(parse_bytes("12 parsecs"));
  EXPECT_EQ(parse_rate_bps("10Gbps"), 10'000'000'000u);
  EXPECT_EQ(parse_rate_bps("100Mbps"), 100'000'000u);
  EXPECT_FALSE(parse_rate_bps("10GB"));
}

// Each file in tests/configs/bad names, in its leading "# expect:" lines, every problem it
// must be refused with, verbatim: file:line:column, key, expected, found.
TEST(SwitchConfig, BadFilesAreRefusedWithThePlaceKeyExpectedAndFound) {
  const int files = testing::check_bad_config_files(
      FCSWITCH_BAD_CONFIG_DIR,
      [](const std::string& text, const std::string& file) { parse_switch_config(text, file); });
  EXPECT_GE(files, 15);
}

// Engines resolve per (port, lossless priority), the most specific table first.
TEST(SwitchConfig, FlowControlResolvesPerPortAndPriority) {
  const SwitchConfig c = parse_switch_config(R"(
[switch]
lossless_priorities = [3, 4]
[buffer]
lossless_ingress = "1MB"
[flow_control]
engine = "pfc"
response_time = "90us"
pfc = { xoff = "800KB", xon = "797KB" }
watchdog = { detect = "100ms", action = "drop" }
[[ports]]
name = "p0"
device = "net_null0"
[ports.flow_control.priority.4]
engine = "none"
[[ports]]
name = "p1"
device = "net_null1"
[ports.flow_control]
engine = "cbfc"
trust = false
cbfc = { period = "52.4us" }
)",
                                             "fc.toml");
  const auto& p0 = c.ports[0].flow_control;
  ASSERT_NE(p0.priorities[3].engine, nullptr);
  EXPECT_EQ(p0.priorities[3].engine->name, "pfc");
  const auto& pfc = static_cast<const fc::PfcParams&>(*p0.priorities[3].params);
  EXPECT_EQ(pfc.xoff_bytes, 800'000u);
  EXPECT_EQ(pfc.xon_bytes, 797'000u);
  EXPECT_EQ(pfc.pause_quanta, 0xFFFF);
  EXPECT_EQ(p0.priorities[4].engine, nullptr);  // "none" for this priority of this port
  EXPECT_EQ(p0.priorities[0].engine, nullptr);  // lossy: never an engine
  EXPECT_TRUE(p0.trust);
  EXPECT_EQ(p0.response_time_ns, 90'000u);
  EXPECT_EQ(p0.watchdog.detect_ns, 100'000'000u);
  EXPECT_EQ(p0.watchdog.action, fc::WatchdogAction::kDrop);

  const auto& p1 = c.ports[1].flow_control;
  for (int prio : {3, 4}) {
    ASSERT_NE(p1.priorities[prio].engine, nullptr);
    EXPECT_EQ(p1.priorities[prio].engine->name, "cbfc");
    EXPECT_EQ(static_cast<const fc::CbfcParams&>(*p1.priorities[prio].params).period_ns, 52'400u);
  }
  EXPECT_FALSE(p1.trust);
  EXPECT_EQ(p1.response_time_ns, 90'000u);  // inherited from [flow_control]
}

TEST(SwitchConfig, FlowControlDefaultsToNoneAndEq6ResponseTime) {
  const SwitchConfig c = parse_switch_config(R"(
[switch]
lossless_priorities = [3]
[[ports]]
name = "p0"
device = "net_null0"
rate = "40Gbps"
)",
                                             "plain.toml");
  EXPECT_EQ(c.ports[0].flow_control.priorities[3].engine, nullptr);
  // GFC Eq. 6 at 40 Gb/s with the c = 33 frames TX may have committed past its gate at each
  // end (a burst of 32 and the wire): 2 × 33 × 300 + 2000 + 3000 (the paper's c = 1: 5600).
  EXPECT_EQ(c.ports[0].flow_control.response_time_ns, 24'800u);
  EXPECT_EQ(c.ports[0].flow_control.watchdog.action, fc::WatchdogAction::kAlert);
}

TEST(SwitchConfig, UnreadableFileIsAnError) {
  EXPECT_THROW(load_switch_config("/nonexistent/switch.toml"), ConfigError);
}

}  // namespace
}  // namespace fcswitch::config

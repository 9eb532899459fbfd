#include "host/host_program_config.h"

#include <gtest/gtest.h>

#include "bad_config_files.h"
#include "config/config_error.h"

namespace fcswitch::host {
namespace {

constexpr const char* kHost = R"(
[switch]
name = "H1"
lossless_priorities = [3]
[host]
ip = "10.0.1.1"
flow_ids = 16
[buffer]
lossless_ingress = "1MB"
[flow_control]
engine = "pfc"
response_time = "90us"
pfc = { xoff = "800KB", xon = "797KB" }
[[ports]]
name = "nic"
device = "net_memif0,role=client"
[[flows]]
id = 7
to = "H2"
to_mac = "02:00:00:00:00:02"
to_ip = "10.0.2.1"
dscp = 26
size = "10MB"
start = "5ms"
rate = "2Gbps"
[[flows]]
id = 8
to_mac = "02:00:00:00:00:03"
to_ip = "10.0.3.1"
priority = 1
pattern = "on-off"
on = "1ms"
off = "3ms"
duration = "1s"
)";

TEST(HostProgramConfig, ReadsTheHostItsPortAndItsFlows) {
  const HostProgramConfig c = parse_host_program_config(kHost, "h1.toml");
  EXPECT_EQ(c.node.name, "H1");
  EXPECT_EQ(c.ip, 0x0A00'0101u);
  EXPECT_EQ(c.flow_ids, 16u);
  ASSERT_EQ(c.node.ports.size(), 1u);
  EXPECT_EQ(c.node.ports[0].name, "nic");
  ASSERT_NE(c.node.ports[0].flow_control.priorities[3].engine, nullptr);
  EXPECT_EQ(c.node.ports[0].flow_control.priorities[3].engine->name, "pfc");
  ASSERT_EQ(c.flows.size(), 2u);
  const HostFlow& a = c.flows[0];
  EXPECT_EQ(a.spec.id, 7);
  EXPECT_EQ(a.to, "H2");
  EXPECT_EQ(a.to_mac.to_string(), "02:00:00:00:00:02");
  EXPECT_EQ(a.to_ip, 0x0A00'0201u);
  EXPECT_EQ(a.spec.dscp, 26);
  EXPECT_EQ(a.spec.priority, 3);  // DSCP 26 → priority 3 by the host's default map (26 >> 3)
  EXPECT_EQ(a.spec.size_bytes, 10'000'000u);
  EXPECT_EQ(a.spec.start_ns, 5'000'000u);
  EXPECT_EQ(a.spec.rate_bps, 2'000'000'000u);
  const HostFlow& b = c.flows[1];
  EXPECT_EQ(b.to, "02:00:00:00:00:03");  // no name: the MAC
  EXPECT_EQ(b.spec.priority, 1);
  EXPECT_EQ(b.spec.on_ns, 1'000'000u);
  EXPECT_EQ(b.spec.off_ns, 3'000'000u);
  EXPECT_EQ(b.spec.stop_ns, 1'000'000'000u);
}

// With [pyrrha] a flow of its class names the switches it crosses (Pyrrha §4.4: the host
// pauses per root); without the section a path is refused.
TEST(HostProgramConfig, AFlowOfPyrrhasClassCarriesItsPath) {
  const std::string text = R"([switch]
lossless_priorities = [3]
[host]
ip = "10.0.1.1"
[flow_control]
engine = "none"
[[ports]]
name = "nic"
device = "net_null0"
[pyrrha]
priority = 3
[[flows]]
id = 1
to_mac = "02:00:00:00:00:02"
to_ip = "10.0.2.1"
priority = 3
pyrrha_path = ["1:1", "7:2"]
)";
  const HostProgramConfig c = parse_host_program_config(text, "p.toml");
  ASSERT_TRUE(c.node.pyrrha.has_value());
  ASSERT_EQ(c.flows.size(), 1u);
  ASSERT_EQ(c.flows[0].pyrrha_path.size(), 2u);
  EXPECT_EQ(c.flows[0].pyrrha_path[1].switch_id, 7u);
  EXPECT_EQ(c.flows[0].pyrrha_path[1].port, 2);

  std::string without = text;
  without.erase(without.find("[pyrrha]"), std::string("[pyrrha]\npriority = 3\n").size());
  try {
    parse_host_program_config(without, "p.toml");
    ADD_FAILURE() << "accepted a path without [pyrrha]";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.problems(),
              std::vector<std::string>{"p.toml:15:15: flows[0].pyrrha_path: expected a [pyrrha] "
                                       "section for the path to matter, found none"});
  }
}

// A flow over a transport is sent with the host's [transport]; a flow another host sends over
// one is named in [[receive]], so that this host's sink answers it.
TEST(HostProgramConfig, FlowsOverATransportAndTheFlowsItAnswers) {
  const std::string text = R"([switch]
lossless_priorities = [3]
[host]
ip = "10.0.1.1"
flow_ids = 16
[transport]
cnp_dscp = 48
[transport.window]
window = "30KB"
rto = "2ms"
[transport.dcqcn]
cnp_interval = "40us"
[[ports]]
name = "nic"
device = "net_null0"
[[flows]]
id = 1
to_mac = "02:00:00:00:00:02"
to_ip = "10.0.2.1"
priority = 3
transport = "dcqcn"
[[flows]]
id = 2
to_mac = "02:00:00:00:00:02"
to_ip = "10.0.2.1"
priority = 3
size = "1MB"
transport = "window"
[[receive]]
id = 5
transport = "window"
from = "H3"
[[receive]]
id = 6
transport = "timely"
)";
  const HostProgramConfig c = parse_host_program_config(text, "h1.toml");
  ASSERT_EQ(c.flows.size(), 2u);
  EXPECT_EQ(c.flows[0].spec.transport, lab::FlowTransport::kDcqcn);
  EXPECT_EQ(c.flows[1].spec.transport, lab::FlowTransport::kWindow);
  EXPECT_EQ(c.transport.window.window_bytes, 30'000u);
  EXPECT_EQ(c.transport.window.rto_ns, 2'000'000u);
  EXPECT_EQ(c.transport.dcqcn.cnp_interval_ns, 40'000u);
  EXPECT_EQ(c.transport.cnp_dscp, 48);
  ASSERT_EQ(c.receives.size(), 2u);
  EXPECT_EQ(c.receives[0].id, 5u);
  EXPECT_EQ(c.receives[0].transport, lab::FlowTransport::kWindow);
  EXPECT_EQ(c.receives[0].from, "H3");
  EXPECT_EQ(c.receives[1].id, 6u);
  EXPECT_EQ(c.receives[1].transport, lab::FlowTransport::kTimely);
  EXPECT_EQ(c.receives[1].from, "");
}

TEST(HostProgramConfig, ShippedTestbedHostConfigIsValid) {
  const HostProgramConfig c =
      load_host_program_config(FCSWITCH_SOURCE_DIR "/config/testbed-82599-host.toml");
  EXPECT_EQ(c.node.ports.size(), 1u);
  EXPECT_FALSE(c.flows.empty());
}

TEST(HostProgramConfig, Ipv4TextRoundTrips) {
  EXPECT_EQ(parse_ipv4("192.168.1.20"), 0xC0A8'0114u);
  EXPECT_EQ(ipv4_text(0xC0A8'0114u), "192.168.1.20");
  EXPECT_FALSE(parse_ipv4("192.168.1"));
  EXPECT_FALSE(parse_ipv4("host"));
}

TEST(HostProgramConfig, BadFilesAreRefusedWithThePlaceKeyExpectedAndFound) {
  const int files = testing::check_bad_config_files(
      FCSWITCH_BAD_HOST_CONFIG_DIR, [](const std::string& text, const std::string& file) {
        parse_host_program_config(text, file);
      });
  EXPECT_GE(files, 10);
}

}  // namespace
}  // namespace fcswitch::host

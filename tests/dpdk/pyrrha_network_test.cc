// fcswitch's [pyrrha] network (lab/pyrrha_network.h): an edge switch of the k = 4 fat-tree
// (config/lab/fat-tree-k4.toml) predicts each packet's onward path from the network's routes
// and every switch's ECMP seed, past the first hop. A table of paths ([[pyrrha.paths]]) pins
// one path per (egress, destination): it cannot tell apart two flows that this switch sends
// up the same port and the aggregation switch above spreads over two cores.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config_error.h"
#include "config/switch_config.h"
#include "frame_builder.h"
#include "lab/pyrrha_network.h"
#include "ring_node_bed.h"
#include "scenario/scenario_file.h"
#include "switch/flow_key.h"
#include "topology/flow_hash.h"
#include "wire/control_frame_kind.h"
#include "wire/ether_type.h"
#include "wire/frame_header.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch::pyrrha_network_test {
namespace {

constexpr char kFatTree[] = FCSWITCH_SOURCE_DIR "/config/lab/fat-tree-k4.toml";
constexpr int kPriority = 3;
constexpr int kFlows = 32;
// T1's ports in the scenario (named for their peers): two hosts, then aggregation L1 and L2.
constexpr const char* kPorts[] = {"T1h1", "T1h2", "L1", "L2"};
constexpr int kUpToL1 = 2;

std::string t1_config(const std::string& name) {
  std::string text = fmt::format(R"(
[switch]
name = "{}"
lossless_priorities = [3]
mac_learning = false
[flow_control]
engine = "none"
)",
                                 name);
  for (const char* port : kPorts)
    text += fmt::format("[[ports]]\nname = \"{}\"\ndevice = \"unused_{}\"\n", port, port);
  // K_pause above what the test sends: T1 holds the flows and relays nothing upstream.
  return text + fmt::format(R"(
[pyrrha]
priority = 3
k_pause_bytes = 1000000
k_resume_bytes = 500000
network = "{}"
node = "T1"
)",
                            kFatTree);
}

// The fat-tree as the test reads it: each switch's topology index and the route table.
struct Network {
  lab::LabScenario scenario = lab::load_lab_scenario(kFatTree, {});
  int sw(const std::string& name) const {
    for (size_t n = 0; n < scenario.nodes.size(); ++n)
      if (scenario.nodes[n].name == name) return scenario.routing.topology_switch[n];
    throw std::runtime_error("no switch " + name);
  }
  const lab::LabNode& node(const std::string& name) const {
    for (const lab::LabNode& n : scenario.nodes)
      if (n.name == name) return n;
    throw std::runtime_error("no node " + name);
  }
  // The port of switch `sw` the scenario's routes and ECMP send `tuple` to host `dst` by.
  int egress(int sw, const std::string& dst, const topology::FiveTuple& tuple) const {
    const auto& r = scenario.routing;
    const auto& macs = r.macs;
    const auto host = std::find(macs.begin(), macs.end(), node(dst).mac) - macs.begin();
    return topology::ecmp_port(r.initial->next_ports(sw, static_cast<topology::HostId>(host)),
                               tuple, r.ecmp_seeds[static_cast<size_t>(sw)]);
  }
};

// T1 with its network, on ring ports the test feeds and drains (test_beds::RingNodeBed).
struct EdgeBed {
  explicit EdgeBed(const std::string& name)
      : config(config::parse_switch_config(t1_config(name), "t1.toml")),
        ring(name, config, 0x02'00'00'00'EE'00ull, lab::take_pyrrha_network(config), 255, 256) {}

  // The data frames `port` sent (Pyrrha's own messages left out), by sequence number.
  std::vector<uint32_t> drain(int port) {
    std::vector<uint32_t> sequences;
    for (const test_beds::SentFrame& f : ring.drain(port))
      if (wire::control_frame_kind(f.bytes.data(), f.bytes.size(), wire::kEtherTypeMacControl) ==
          wire::ControlFrameKind::kData)
        sequences.push_back(traffic::sequence_of(f.bytes));
    return sequences;
  }

  config::SwitchConfig config;  // made T1 by take_pyrrha_network before the bed is built
  test_beds::RingNodeBed ring;
};

std::vector<uint8_t> pyrrha_from_l1(wire::PyrrhaOpcode op, uint8_t hops, uint32_t root_switch,
                                    uint16_t root_port) {
  std::vector<uint8_t> bytes(wire::kPyrrhaFrameBytes);
  wire::encode_pyrrha({wire::MacAddress{0x02'00'00'00'DD'02ull},
                       op,
                       kPriority,
                       hops,
                       wire::PyrrhaRoot{root_switch, root_port},
                       {}},
                      bytes.data());
  return bytes;
}

// Flow f's one frame, from T1h1 to T3h1 (another pod), its IPv4 source 10.0.1.f.
std::vector<uint8_t> flow_frame(const Network& net, uint32_t f) {
  traffic::FrameSpec spec;
  spec.dst = net.node("T3h1").mac.value;
  spec.src = net.node("T1h1").mac.value;
  spec.dscp = 24;  // class selector 3: priority 3
  spec.sequence = f;
  spec.size = 200;
  spec.src_ip = 0x0A'00'01'00u + f;
  spec.dst_ip = 0x0A'00'03'01u;
  return traffic::build_frame(spec);
}

topology::FiveTuple tuple_of(const std::vector<uint8_t>& frame) {
  const auto header = wire::parse_frame_header(frame.data(), frame.size());
  return flow_key(frame.data(), frame.size(), header);
}

// The switch takes its node's routes, ECMP seed and switch id from the network.
TEST(PyrrhaNetwork, TheSwitchForwardsAsItsNodeOfTheNetwork) {
  const Network net;
  EdgeBed edge("pnetfib");
  const lab::LabNode& t1 = net.node("T1");
  EXPECT_EQ(edge.config.fib.size(), t1.config.fib.size());
  EXPECT_EQ(edge.config.ecmp_seed, t1.config.ecmp_seed);
  EXPECT_EQ(edge.config.pyrrha->switch_id, static_cast<uint32_t>(net.sw("T1")));
  ASSERT_TRUE(edge.ring.node().tx(0).sends_pyrrha());
  // Every flow leaves by the uplink the network's routes and T1's seed pick.
  std::map<int, std::vector<uint32_t>> expected;
  for (uint32_t f = 0; f < kFlows; ++f) {
    const auto frame = flow_frame(net, f);
    edge.ring.send(0, frame);
    expected[net.egress(net.sw("T1"), "T3h1", tuple_of(frame))].push_back(f);
  }
  edge.ring.step(8);
  ASSERT_EQ(expected.size(), 2u) << "the flows should spread over both uplinks";
  for (const auto& [port, flows] : expected) EXPECT_EQ(edge.drain(port), flows) << port;
}

// L1 pauses its own port towards core S1 (Pyrrha §4.1: root L1:port, hop 1). T1 holds exactly
// the flows it sends up to L1 that L1 hashes on to S1; those L1 sends to S2, and those T1 sends
// to L2, go on. RESUME lets the held ones go, in order.
TEST(PyrrhaNetwork, AnEdgeSwitchHoldsOnlyTheFlowsTheNextSwitchHashesToThePausedRoot) {
  const Network net;
  EdgeBed edge("pnethold");
  const int t1 = net.sw("T1"), l1 = net.sw("L1");
  const auto& l1_ports = net.scenario.routing.topo.at(l1).ports;
  int to_s1 = -1;
  for (size_t p = 0; p < l1_ports.size(); ++p)
    if (l1_ports[p].peer == topology::PeerKind::kSwitch && l1_ports[p].peer_switch == net.sw("S1"))
      to_s1 = static_cast<int>(p);
  ASSERT_GE(to_s1, 0);
  edge.ring.send(kUpToL1, pyrrha_from_l1(wire::PyrrhaOpcode::kPause, 1, static_cast<uint32_t>(l1),
                                         static_cast<uint16_t>(to_s1)));
  edge.ring.step(2);

  std::map<int, std::vector<uint32_t>> passing;
  std::vector<uint32_t> held;
  size_t up_to_l1 = 0;
  for (uint32_t f = 0; f < kFlows; ++f) {
    const auto frame = flow_frame(net, f);
    edge.ring.send(0, frame);
    const auto tuple = tuple_of(frame);
    const int up = net.egress(t1, "T3h1", tuple);
    if (up == kUpToL1) ++up_to_l1;
    if (up == kUpToL1 && net.egress(l1, "T3h1", tuple) == to_s1) {
      held.push_back(f);
    } else {
      passing[up].push_back(f);
    }
  }
  // Past the first hop: of the flows T1 sends to L1, some go on to S1 and some do not.
  ASSERT_GT(held.size(), 0u);
  ASSERT_LT(held.size(), up_to_l1);
  edge.ring.step(8);
  for (const auto& [port, flows] : passing) EXPECT_EQ(edge.drain(port), flows) << port;
  EXPECT_TRUE(edge.drain(kUpToL1 + 1).empty());

  edge.ring.send(kUpToL1, pyrrha_from_l1(wire::PyrrhaOpcode::kResume, 0, static_cast<uint32_t>(l1),
                                         static_cast<uint16_t>(to_s1)));
  edge.ring.step(16);
  EXPECT_EQ(edge.drain(kUpToL1), held);
  EXPECT_TRUE(edge.ring.node().progress().empty);
}

// What a config cannot have beside network, and a node the network lacks: refused, with the
// config's place of the key.
TEST(PyrrhaNetwork, ANodeTheNetworkLacksIsRefusedAtItsKey) {
  auto config = config::parse_switch_config(t1_config("pnetbad"), "t1.toml");
  config.pyrrha->network->node = "T9";
  try {
    lab::take_pyrrha_network(config);
    FAIL() << "T9 taken";
  } catch (const config::ConfigError& error) {
    ASSERT_EQ(error.problems().size(), 1u);
    EXPECT_EQ(
        error.problems()[0].rfind(config.pyrrha->network->node_place + ": pyrrha.node: "
                                                                       "expected a switch of ",
                                  0),
        0u)
        << error.problems()[0];
    EXPECT_NE(error.problems()[0].find("found \"T9\""), std::string::npos);
  }
}

// The switch forwards as its node, so an ECMP seed of its own (which the other switches would
// not predict it with) is refused, at the config's place of `network`.
TEST(PyrrhaNetwork, AnEcmpSeedOfItsOwnIsRefused) {
  auto config = config::parse_switch_config(t1_config("pnetseed"), "t1.toml");
  config.ecmp_seed = 7;
  try {
    lab::take_pyrrha_network(config);
    FAIL() << "a seed of its own taken";
  } catch (const config::ConfigError& error) {
    ASSERT_EQ(error.problems().size(), 1u);
    EXPECT_EQ(error.problems()[0].rfind(config.pyrrha->network->file_place +
                                            ": pyrrha.network: expected no [switch] ecmp_seed",
                                        0),
              0u)
        << error.problems()[0];
  }
}

}  // namespace
}  // namespace fcswitch::pyrrha_network_test

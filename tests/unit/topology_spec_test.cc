// lib/topology's generators through the one spec parser: switch, port, host and link counts
// computed from each family's formula, the GFC ring read back from its lab scenario, the
// fat-tree names of GFC Fig. 11, and bad specs refused with what was expected and found.
#include <gtest/gtest.h>

#include <toml++/toml.h>

#include <stdexcept>
#include <string>

#include "topology/host_table.h"
#include "topology/topology_generators.h"
#include "topology/topology_spec.h"

namespace fcswitch::topology {
namespace {

struct Counts {
  int switches;
  int hosts;
  int links;  // switch-to-switch
  int ports;  // every switch port
};

Counts counts(const Topology& topo) {
  int ports = 0;
  for (int n : topo.ports_per_switch()) ports += n;
  return {topo.switches(), topo.host_ports(), topo.links(), ports};
}

void expect_counts(std::string_view spec, Counts want) {
  SCOPED_TRACE(std::string(spec));
  const Counts got = counts(from_spec(spec));
  EXPECT_EQ(got.switches, want.switches);
  EXPECT_EQ(got.hosts, want.hosts);
  EXPECT_EQ(got.links, want.links);
  EXPECT_EQ(got.ports, want.ports);
}

TEST(TopologySpec, FatTreeCountsFollowK) {
  // 5k²/4 switches, k³/4 hosts, k³/2 switch links (k³/4 edge–aggregation, k³/4 aggregation–
  // core), and every switch has k ports.
  expect_counts("fat-tree:4", {20, 16, 32, 80});
  expect_counts("fat-tree:8", {80, 128, 256, 640});
  const Topology topo = from_spec("fat-tree:4");
  for (const TopologySwitch& s : topo.all()) EXPECT_EQ(s.ports.size(), 4u) << s.name;
}

TEST(TopologySpec, ClosBcubeRingLeafSpineCounts) {
  // clos: 2 spines + 2 pods × (2 ToRs + 2 leaves); ToR–leaf 2×4, leaf–spine 4×2.
  expect_counts("clos:2,2,2,2,4", {10, 16, 16, 16 + 16 + 16});
  // BCube(2,1): 4 servers (relaying nodes, one host each) + 2 levels × 2 switches; each server
  // has 2 links.
  expect_counts("bcube:2,1", {8, 4, 8, 4 * 3 + 4 * 2});
  expect_counts("ring:5", {5, 5, 5, 15});
  // leaf-spine: 4 leaves × (3 hosts + 2 uplinks), 2 spines × 4 downlinks.
  expect_counts("leaf-spine:4,2,3", {6, 12, 8, 4 * 5 + 2 * 4});
  const Topology ls = from_spec("leaf-spine:4,2,3");
  EXPECT_EQ(ls.at(ls.switch_index("L1")).tier, 0);
  EXPECT_EQ(ls.at(ls.switch_index("S2")).tier, 1);
}

TEST(TopologySpec, JellyfishKeepsPortsAndSeed) {
  // Every switch keeps all PORTS ports; the network ports form a near-r-regular graph.
  const Topology a = from_spec("jellyfish:20,8,4,7");
  EXPECT_EQ(a.switches(), 20);
  for (const TopologySwitch& s : a.all()) EXPECT_EQ(s.ports.size(), 8u) << s.name;
  EXPECT_EQ(a.host_ports() + 2 * a.links(), 20 * 8);
  EXPECT_GE(a.links(), 38);
  EXPECT_LE(a.links(), 40);
  // SEED defaults to 1, tagger-gen's long-standing default; another seed wires differently.
  const Topology seed1 = from_spec("jellyfish:20,8,4,1");
  const Topology fallback = from_spec("jellyfish:20,8,4");
  bool differs_from_a = false;
  for (int sw = 0; sw < 20; ++sw) {
    ASSERT_EQ(seed1.at(sw).ports.size(), fallback.at(sw).ports.size());
    for (size_t p = 0; p < seed1.at(sw).ports.size(); ++p) {
      EXPECT_EQ(seed1.at(sw).ports[p].name, fallback.at(sw).ports[p].name);
      differs_from_a |=
          p >= a.at(sw).ports.size() || seed1.at(sw).ports[p].name != a.at(sw).ports[p].name;
    }
  }
  EXPECT_TRUE(differs_from_a);
}

// ring:3 is config/lab/gfc-ring.toml's network: its switches, ports in order, hosts on "h",
// and its links, read from the file itself.
TEST(TopologySpec, Ring3IsTheGfcRingScenario) {
  const toml::table scenario = toml::parse_file(FCSWITCH_LAB_CONFIG_DIR "/gfc-ring.toml");
  const Topology topo = from_spec("ring:3");
  const toml::array& switches = *scenario.get_as<toml::array>("switches");
  ASSERT_EQ(static_cast<int>(switches.size()), topo.switches());
  for (int sw = 0; sw < topo.switches(); ++sw) {
    const toml::table& s = *switches[sw].as_table();
    EXPECT_EQ(topo.at(sw).name, s["name"].value_or(std::string()));
    const toml::array& ports = *s.get_as<toml::array>("ports");
    ASSERT_EQ(ports.size(), topo.at(sw).ports.size());
    for (size_t p = 0; p < ports.size(); ++p)
      EXPECT_EQ(topo.at(sw).ports[p].name, (*ports[p].as_table())["name"].value_or(std::string()));
  }
  int links = 0;
  for (const toml::node& node : *scenario.get_as<toml::array>("links")) {
    const toml::table& link = *node.as_table();
    const std::string a = link["a"].value_or(std::string());
    const std::string b = link["b"].value_or(std::string());
    SCOPED_TRACE(a + " -- " + b);
    if (a.find(':') == std::string::npos) {  // a host on "switch:port"
      const int sw = topo.switch_index(b.substr(0, b.find(':')));
      ASSERT_GE(sw, 0);
      const TopologyPort& port = topo.at(sw).ports[topo.port_index(sw, b.substr(b.find(':') + 1))];
      EXPECT_EQ(port.peer, PeerKind::kHost);
      EXPECT_EQ(port.host, a);
      continue;
    }
    const int sa = topo.switch_index(a.substr(0, a.find(':')));
    const int sb = topo.switch_index(b.substr(0, b.find(':')));
    ASSERT_GE(sa, 0);
    ASSERT_GE(sb, 0);
    const TopologyPort& pa = topo.at(sa).ports[topo.port_index(sa, a.substr(a.find(':') + 1))];
    EXPECT_EQ(pa.peer, PeerKind::kSwitch);
    EXPECT_EQ(pa.peer_switch, sb);
    EXPECT_EQ(pa.peer_port, topo.port_index(sb, b.substr(b.find(':') + 1)));
    ++links;
  }
  EXPECT_EQ(links, topo.links());
}

TEST(TopologySpec, FatTreeHostsAreNumberedAsGfcFigure11) {
  // HostTable numbers hosts H_0…H_15 pod by pod; fat_tree_host() names the same ones.
  const Topology topo = from_spec("fat-tree:4");
  const HostTable hosts(topo);
  ASSERT_EQ(hosts.size(), 16);
  for (int n = 0; n < 16; ++n) EXPECT_EQ(hosts.at(n).name, fat_tree_host(4, n)) << n;
  EXPECT_EQ(fat_tree_host(4, 0), "T1h1");
  EXPECT_EQ(fat_tree_host(4, 8), "T5h1");  // GFC F1: H_0 → H_8, pod 0 to pod 2
  EXPECT_EQ(fat_tree_host(4, 13), "T7h2");
  // GFC §6.2.2's cycle S_C1 → S_A3 → S_C2 → S_A7: L3 and L7 both reach cores S1 and S2.
  for (const char* agg : {"L3", "L7"}) {
    const int sw = topo.switch_index(agg);
    std::vector<std::string> up;
    for (const TopologyPort& p : topo.at(sw).ports)
      if (topo.at(p.peer_switch).tier == 2) up.push_back(topo.at(p.peer_switch).name);
    EXPECT_EQ(up, (std::vector<std::string>{"S1", "S2"})) << agg;
  }
  EXPECT_THROW(fat_tree_host(4, 16), std::invalid_argument);
}

std::string message_of(std::string_view spec) {
  try {
    from_spec(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(TopologySpec, BadSpecsSayWhatWasExpectedAndFound) {
  EXPECT_EQ(message_of("fat-tree:3"), "fat-tree:K: expected an even K >= 2, found 3");
  EXPECT_EQ(message_of("fat-tree:0"), "fat-tree:K: expected an even K >= 2, found 0");
  EXPECT_EQ(message_of("fat-tree"), "fat-tree:K: expected 1 number, found 0 in \"fat-tree\"");
  EXPECT_EQ(message_of("clos:1,2"),
            "clos:PODS,TORS,LEAVES,SPINES,HOSTS: expected 5 numbers, found 2 in \"clos:1,2\"");
  EXPECT_EQ(message_of("jellyfish:10,4,x"),
            "jellyfish:N,PORTS,R[,SEED]: expected a decimal integer, found \"x\" in "
            "\"jellyfish:10,4,x\"");
  EXPECT_EQ(message_of("jellyfish:10,4,5"),
            "jellyfish:N,PORTS,R[,SEED]: expected N >= 2 and 1 <= R <= PORTS with R < N, found "
            "10,4,5");
  EXPECT_EQ(message_of("jellyfish:1,2,3,4,5"),
            "jellyfish:N,PORTS,R[,SEED]: expected 3 or 4 numbers, found 5 in "
            "\"jellyfish:1,2,3,4,5\"");
  EXPECT_EQ(message_of("ring:2"), "ring:N: expected N >= 3 (a cycle), found 2");
  EXPECT_EQ(message_of("ring:4x"),
            "ring:N: expected a decimal integer, found \"4x\" in \"ring:4x\"");
  EXPECT_EQ(message_of("leaf-spine:0,2,2"),
            "leaf-spine:LEAVES,SPINES,HOSTS_PER_LEAF: expected LEAVES >= 1, SPINES >= 1 and "
            "HOSTS_PER_LEAF >= 0, found 0,2,2");
  EXPECT_EQ(message_of("bcube:2,7"), "bcube:N,K: expected N >= 2 and 0 <= K <= 6, found 2,7");
  // Too big to build: refused before the generator tries (fat-tree:128 is 2·¾·128³ ports).
  EXPECT_EQ(message_of("fat-tree:128"),
            "fat-tree:K: expected a network of at most 2097152 ports (2 per link), found 128 "
            "(3145728 ports)");
  // Past what 64 bits count (converting that double was undefined behaviour).
  EXPECT_EQ(message_of("bcube:1048576,6"),
            "bcube:N,K: expected a network of at most 2097152 ports (2 per link), found "
            "1048576,6 (over 2^64 ports)");
  EXPECT_EQ(message_of("ring:1048576"),
            "ring:N: expected a network of at most 2097152 ports (2 per link), found 1048576 "
            "(4194304 ports)");
  EXPECT_EQ(message_of("torus:4"),
            "topology: expected " + std::string(spec_forms()) + ", found \"torus:4\"");
}

// The papers' largest network passes the size check and is built: Tagger's Table 5 and Fig. 13
// Jellyfish of 10 000 switches, 32 of their 64 ports to the network (Tagger §7).
TEST(TopologySpec, TaggersLargestJellyfishIsBuilt) {
  const Topology t = from_spec("jellyfish:10000,64,32");
  EXPECT_EQ(t.switches(), 10000);
}

TEST(TopologySpec, NamesGeneratorTellsSpecsFromFiles) {
  EXPECT_TRUE(names_generator("fat-tree:4"));
  EXPECT_TRUE(names_generator("ring:3"));
  EXPECT_TRUE(names_generator("leaf-spine:2,2,2"));
  EXPECT_TRUE(names_generator("clos"));  // a spec, missing its numbers: from_spec says so
  EXPECT_FALSE(names_generator("config/lab/tagger-clos.toml"));
  EXPECT_FALSE(names_generator("ringer:3"));
}

}  // namespace
}  // namespace fcswitch::topology

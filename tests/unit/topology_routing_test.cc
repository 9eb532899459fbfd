// lib/topology's routing: equal-cost groups of shortest and up-down routing on a fat-tree,
// static overrides (the GFC ring's clockwise routes), the one ECMP hash and the path it
// predicts, random link failures (GFC §6.2.3) and the connectivity check.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "topology/flow_hash.h"
#include "topology/host_connectivity.h"
#include "topology/link_failures.h"
#include "topology/path_prediction.h"
#include "topology/route_overrides.h"
#include "topology/shortest_routes.h"
#include "topology/topology_spec.h"
#include "topology/updown_routes.h"

namespace fcswitch::topology {
namespace {

int sw_of(const Topology& topo, std::string_view name) {
  const int sw = topo.switch_index(name);
  EXPECT_GE(sw, 0) << name;
  return sw;
}

// The peers a group leads to, by name.
std::set<std::string> peers(const Topology& topo, int sw, const PortGroup& group) {
  std::set<std::string> out;
  for (int p : group) {
    const TopologyPort& port = topo.at(sw).ports[p];
    out.insert(port.peer == PeerKind::kHost ? port.host : topo.at(port.peer_switch).name);
  }
  return out;
}

FiveTuple random_tuple(std::mt19937& rng) {
  return {static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()), static_cast<uint16_t>(rng()),
          static_cast<uint16_t>(rng()), static_cast<uint8_t>(rng() % 2 ? 6 : 17)};
}

TEST(ShortestRoutes, FatTreeKeepsEveryEqualCostNextHop) {
  const Topology topo = from_spec("fat-tree:4");
  const RouteTable routes = shortest_routes(topo);
  const HostTable& hosts = routes.hosts();
  const HostId h4 = hosts.find("T3h1");  // H_4: pod 1
  ASSERT_EQ(h4, 4);
  const int t1 = sw_of(topo, "T1");
  // An edge switch: both uplinks to a host of another pod, in ascending port order.
  EXPECT_EQ(routes.next_ports(t1, h4), (PortGroup{2, 3}));
  EXPECT_EQ(peers(topo, t1, routes.next_ports(t1, h4)), (std::set<std::string>{"L1", "L2"}));
  // ... and to the other edge switch of its pod (via either aggregation switch).
  EXPECT_EQ(routes.next_ports(t1, hosts.find("T2h1")), (PortGroup{2, 3}));
  // ... and its own host's port only.
  EXPECT_EQ(routes.next_ports(t1, hosts.find("T1h2")), (PortGroup{1}));
  // An aggregation switch of another pod: up to both its cores.
  const int l1 = sw_of(topo, "L1");
  EXPECT_EQ(peers(topo, l1, routes.next_ports(l1, h4)), (std::set<std::string>{"S1", "S2"}));
  // A core has exactly one port down into each pod; the pod's aggregation switch one port
  // down to the edge switch.
  for (const char* core : {"S1", "S2", "S3", "S4"}) {
    const int s = sw_of(topo, core);
    EXPECT_EQ(routes.next_ports(s, h4).size(), 1u) << core;
  }
  EXPECT_EQ(peers(topo, sw_of(topo, "S1"), routes.next_ports(sw_of(topo, "S1"), h4)),
            (std::set<std::string>{"L3"}));
  EXPECT_EQ(peers(topo, sw_of(topo, "L3"), routes.next_ports(sw_of(topo, "L3"), h4)),
            (std::set<std::string>{"T3"}));
}

TEST(UpdownRoutes, MatchShortestOnAnIntactFatTree) {
  // Every shortest path of an intact fat-tree is up-down, so the two tables agree.
  const Topology topo = from_spec("fat-tree:4");
  const RouteTable shortest = shortest_routes(topo);
  const RouteTable updown = updown_routes(topo);
  for (int sw = 0; sw < topo.switches(); ++sw)
    for (HostId h = 0; h < shortest.hosts().size(); ++h)
      EXPECT_EQ(updown.next_ports(sw, h), shortest.next_ports(sw, h)) << sw << " " << h;
  EXPECT_THROW(updown_routes(from_spec("ring:3")), std::invalid_argument);
}

// True when a path climbs again after descending (a valley: the CBD of GFC §6.2.2's case
// study, S_C1 → S_A3 → S_C2, is one).
bool has_valley(const Topology& topo, const std::vector<Hop>& path) {
  bool descended = false;
  for (size_t i = 1; i < path.size(); ++i) {
    const int before = topo.at(path[i - 1].sw).tier;
    const int now = topo.at(path[i].sw).tier;
    if (now < before) descended = true;
    if (now > before && descended) return true;
  }
  return false;
}

TEST(UpdownRoutes, NeverDescendThenClimbWhereShortestDoes) {
  // On fat-trees with failed links, shortest paths can dip and climb again; up-down paths
  // never do. The shortest valley is found first so the check cannot pass vacuously.
  const Topology intact = from_spec("fat-tree:4");
  const std::vector<uint32_t> seeds = switch_seeds(intact.switches(), 7);
  std::mt19937 rng(3);
  int shortest_valleys = 0;
  int updown_paths = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Topology topo = without_links(intact, fail_links_at_random(intact, 0.15, seed));
    const RouteTable shortest = shortest_routes(topo);
    const RouteTable updown = updown_routes(topo);
    for (HostId src = 0; src < 16; ++src)
      for (HostId dst = 0; dst < 16; ++dst) {
        if (src == dst) continue;
        const FiveTuple tuple = random_tuple(rng);
        shortest_valleys += has_valley(topo, predict_path(shortest, topo, src, dst, tuple, seeds));
        const std::vector<Hop> path = predict_path(updown, topo, src, dst, tuple, seeds);
        updown_paths += !path.empty();
        EXPECT_FALSE(has_valley(topo, path)) << "seed " << seed << " " << src << "->" << dst;
      }
    // Down means down: every switch of a descent keeps the destination below it.
    for (int sw = 0; sw < topo.switches(); ++sw)
      for (HostId h = 0; h < 16; ++h)
        for (int p : updown.next_ports(sw, h)) {
          const TopologyPort& port = topo.at(sw).ports[p];
          if (port.peer != PeerKind::kSwitch || topo.at(port.peer_switch).tier > topo.at(sw).tier)
            continue;
          for (int q : updown.next_ports(port.peer_switch, h)) {
            const TopologyPort& next = topo.at(port.peer_switch).ports[q];
            if (next.peer == PeerKind::kSwitch) {
              EXPECT_LT(topo.at(next.peer_switch).tier, topo.at(port.peer_switch).tier);
            }
          }
        }
  }
  EXPECT_GT(shortest_valleys, 0);
  EXPECT_GT(updown_paths, 40 * 200);
}

TEST(RouteOverrides, PinTheGfcRingClockwise) {
  // gfc-ring.toml routes S1's traffic to H3 clockwise (S1 → S2 → S3) though S1:ccw reaches
  // S3 in one hop.
  const Topology topo = from_spec("ring:3");
  RouteTable routes = shortest_routes(topo);
  const HostTable& hosts = routes.hosts();
  const HostId h1 = hosts.find("H1");
  const HostId h3 = hosts.find("H3");
  const std::vector<uint32_t> seeds = switch_seeds(3, 1);
  EXPECT_EQ(predict_path(routes, topo, h1, h3, {}, seeds).size(), 2u);
  const std::array<std::string, 1> cw = {"cw"};
  const std::vector<RouteOverride> overrides = {override_by_name(topo, hosts, "S1", "H3", cw),
                                                override_by_name(topo, hosts, "S2", "H3", cw)};
  apply_overrides(topo, routes, overrides);
  const std::vector<Hop> path = predict_path(routes, topo, h1, h3, {}, seeds);
  ASSERT_EQ(path.size(), 3u);
  EXPECT_EQ(topo.at(path[0].sw).name, "S1");
  EXPECT_EQ(topo.at(path[1].sw).name, "S2");
  EXPECT_EQ(topo.at(path[2].sw).name, "S3");
  EXPECT_EQ(topo.at(path[2].sw).ports[path[2].out_port].host, "H3");
  EXPECT_THROW(override_by_name(topo, hosts, "S1", "H3", std::array<std::string, 1>{"up"}),
               std::invalid_argument);
  EXPECT_THROW(override_by_name(topo, hosts, "S9", "H3", cw), std::invalid_argument);
  EXPECT_THROW(apply_overrides(topo, routes, std::vector<RouteOverride>{{0, h3, {7}}}),
               std::invalid_argument);
}

TEST(FlowHash, SpreadsRandomTuplesEvenlyOverEveryGroupSize) {
  // 10 000 flows: a member's share is within 5 % (relative) of 1/size for the usual groups of
  // 2–4 (≥ 3σ of the binomial spread), and within 10 % for 8, where σ alone is 2.6 %.
  constexpr int kFlows = 10000;
  for (int size : {2, 3, 4, 8}) {
    std::mt19937 rng(size);
    std::vector<int> hits(size);
    for (int i = 0; i < kFlows; ++i) ++hits[ecmp_member(flow_hash(random_tuple(rng), 42), size)];
    const double expected = static_cast<double>(kFlows) / size;
    const double tolerance = (size <= 4 ? 0.05 : 0.10) * expected;
    for (int m = 0; m < size; ++m)
      EXPECT_NEAR(hits[m], expected, tolerance) << "size " << size << " member " << m;
  }
}

TEST(FlowHash, SpreadsConsecutivePortsAndAvoidsPolarisation) {
  // Flows differing only in the source port, as one host's connections do.
  std::vector<int> first(4), second(4);
  std::vector<FiveTuple> sent_to_zero;
  for (uint16_t port = 0; port < 10000; ++port) {
    const FiveTuple t{0x0a000001, 0x0a000002, port, 4791, 17};
    const int m = ecmp_member(flow_hash(t, 1), 4);
    ++first[m];
    if (m == 0) sent_to_zero.push_back(t);
  }
  for (int n : first) EXPECT_NEAR(n, 2500, 125);
  // The next switch hashes with its own seed: the flows one member carried spread again.
  for (const FiveTuple& t : sent_to_zero) ++second[ecmp_member(flow_hash(t, 2), 4)];
  for (int n : second) EXPECT_NEAR(n, sent_to_zero.size() / 4.0, sent_to_zero.size() * 0.05);
  // With one seed everywhere they would all land on member 0 again.
  for (const FiveTuple& t : sent_to_zero) EXPECT_EQ(ecmp_member(flow_hash(t, 1), 4), 0);
  EXPECT_EQ(ecmp_member(0, 4), 0);
  EXPECT_EQ(ecmp_member(0xffffffff, 4), 3);
  EXPECT_EQ(ecmp_member(123, 0), -1);
  const std::vector<uint32_t> seeds = switch_seeds(1000, 5);
  EXPECT_EQ(std::set<uint32_t>(seeds.begin(), seeds.end()).size(), 1000u);
}

TEST(PathPrediction, EveryHopIsTheSwitchGroupsHashedMember) {
  const Topology topo = from_spec("fat-tree:4");
  const RouteTable routes = shortest_routes(topo);
  const std::vector<uint32_t> seeds = switch_seeds(topo.switches(), 11);
  std::mt19937 rng(5);
  std::set<std::string> cores_h0_h8;
  for (int trial = 0; trial < 200; ++trial) {
    const FiveTuple tuple = random_tuple(rng);
    for (HostId src = 0; src < 16; ++src)
      for (HostId dst = 0; dst < 16; ++dst) {
        if (src == dst) continue;
        const std::vector<Hop> path = predict_path(routes, topo, src, dst, tuple, seeds);
        // Same edge switch: 1 switch; same pod: 3; across pods: 5.
        const int size = src / 2 == dst / 2 ? 1 : src / 4 == dst / 4 ? 3 : 5;
        ASSERT_EQ(static_cast<int>(path.size()), size) << src << "->" << dst;
        // Walk the tables by hand with the shared hash.
        int sw = routes.hosts().at(src).sw;
        int in = routes.hosts().at(src).port;
        for (const Hop& hop : path) {
          const PortGroup& group = routes.next_ports(sw, dst);
          ASSERT_FALSE(group.empty());
          const int out = group[ecmp_member(flow_hash(tuple, seeds[sw]), group.size())];
          EXPECT_EQ(hop.sw, sw);
          EXPECT_EQ(hop.in_port, in);
          EXPECT_EQ(hop.out_port, out);
          in = topo.at(sw).ports[out].peer_port;
          sw = topo.at(sw).ports[out].peer_switch;
        }
        const Hop& last = path.back();
        EXPECT_EQ(topo.at(last.sw).ports[last.out_port].host, routes.hosts().at(dst).name);
        if (src == 0 && dst == 8) cores_h0_h8.insert(topo.at(path[2].sw).name);
      }
  }
  // GFC's F1 (H_0 → H_8) meets every core over different flows.
  EXPECT_EQ(cores_h0_h8, (std::set<std::string>{"S1", "S2", "S3", "S4"}));
}

TEST(LinkFailures, SampleEachLinkWithTheGivenProbability) {
  // GFC §6.2.3: each link fails with probability 5 %.
  const Topology topo = from_spec("fat-tree:8");
  const int links = static_cast<int>(switch_links(topo).size());
  ASSERT_EQ(links, 256);
  int failed = 0;
  constexpr int kNetworks = 200;
  for (uint64_t seed = 0; seed < kNetworks; ++seed) {
    const std::vector<SwitchLink> cut = fail_links_at_random(topo, 0.05, seed);
    failed += static_cast<int>(cut.size());
    for (const SwitchLink& l : cut) {
      EXPECT_EQ(topo.at(l.switch_a).ports[l.port_a].peer_switch, l.switch_b);
      EXPECT_EQ(topo.at(l.switch_a).ports[l.port_a].peer_port, l.port_b);
    }
  }
  EXPECT_NEAR(static_cast<double>(failed) / (kNetworks * links), 0.05, 0.005);
  EXPECT_EQ(fail_links_at_random(topo, 0.05, 9), fail_links_at_random(topo, 0.05, 9));
  EXPECT_NE(fail_links_at_random(topo, 0.05, 9), fail_links_at_random(topo, 0.05, 10));
  EXPECT_TRUE(fail_links_at_random(topo, 0.0, 1).empty());
  EXPECT_EQ(static_cast<int>(fail_links_at_random(topo, 1.0, 1).size()), links);
  EXPECT_THROW(fail_links_at_random(topo, 1.5, 1), std::invalid_argument);
  // Cut links lead nowhere; the rest, and the hosts, stay.
  const std::vector<SwitchLink> cut = fail_links_at_random(topo, 0.05, 3);
  const Topology left = without_links(topo, cut);
  EXPECT_EQ(left.links(), links - static_cast<int>(cut.size()));
  EXPECT_EQ(left.host_ports(), topo.host_ports());
  EXPECT_EQ(left.ports_per_switch(), topo.ports_per_switch());
  for (const SwitchLink& l : cut)
    EXPECT_EQ(left.at(l.switch_a).ports[l.port_a].peer, PeerKind::kNone);
}

TEST(HostConnectivity, CatchesAnEdgeSwitchCutOff) {
  const Topology topo = from_spec("fat-tree:4");
  EXPECT_TRUE(host_connectivity(topo).all_connected());
  // Both uplinks of T1 fail: H_0 and H_1 can reach each other and nobody else.
  const int t1 = topo.switch_index("T1");
  std::vector<SwitchLink> cut;
  for (const SwitchLink& l : switch_links(topo))
    if (l.switch_a == t1 || l.switch_b == t1) cut.push_back(l);
  ASSERT_EQ(cut.size(), 2u);
  const Topology left = without_links(topo, cut);
  const HostConnectivity c = host_connectivity(left);
  EXPECT_FALSE(c.all_connected());
  EXPECT_EQ(c.components, 2);
  EXPECT_EQ(c.cut_off, (std::vector<HostId>{0, 1}));
  EXPECT_EQ(c.disconnected_pairs, 2 * 14);
  EXPECT_TRUE(c.connected(0, 1));
  EXPECT_FALSE(c.connected(0, 2));
  EXPECT_TRUE(c.connected(2, 15));
  // Routing on what is left agrees: no way in or out, the rest unaffected.
  const RouteTable routes = shortest_routes(left);
  const std::vector<uint32_t> seeds = switch_seeds(left.switches(), 1);
  EXPECT_TRUE(routes.next_ports(topo.switch_index("S1"), 0).empty());
  EXPECT_TRUE(predict_path(routes, left, 2, 0, {}, seeds).empty());
  EXPECT_TRUE(predict_path(routes, left, 0, 8, {}, seeds).empty());
  EXPECT_EQ(predict_path(routes, left, 0, 1, {}, seeds).size(), 1u);
  EXPECT_EQ(predict_path(routes, left, 2, 8, {}, seeds).size(), 5u);
}

}  // namespace
}  // namespace fcswitch::topology

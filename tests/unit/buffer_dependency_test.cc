// lib/topology's buffer dependency graph (GFC §6.2.3: Table 1 runs only networks whose routing
// has a cyclic buffer dependency): the GFC ring routed clockwise has one, a tree and an intact
// fat-tree under shortest paths do not, and every ECMP member counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "topology/buffer_dependency.h"
#include "topology/link_failures.h"
#include "topology/route_overrides.h"
#include "topology/shortest_routes.h"
#include "topology/topology_spec.h"

namespace fcswitch::topology {
namespace {

std::vector<std::string> names(const Topology& topo, const std::vector<EndpointId>& endpoints) {
  std::vector<std::string> out;
  for (EndpointId e : endpoints) out.push_back(topo.endpoint_name(e));
  return out;
}

TEST(BufferDependency, GfcRingClockwiseHasTheCycle) {
  // GFC Fig. 1: each host sends to the host two switches away, clockwise (gfc-ring.toml's
  // routes), so each ring ingress holds packets that wait for the next one.
  const Topology topo = from_spec("ring:3");
  RouteTable routes = shortest_routes(topo);
  const HostTable& hosts = routes.hosts();
  const std::array<std::string, 1> cw = {"cw"};
  const std::vector<RouteOverride> overrides = {
      override_by_name(topo, hosts, "S1", "H3", cw), override_by_name(topo, hosts, "S2", "H3", cw),
      override_by_name(topo, hosts, "S2", "H1", cw), override_by_name(topo, hosts, "S3", "H1", cw),
      override_by_name(topo, hosts, "S3", "H2", cw), override_by_name(topo, hosts, "S1", "H2", cw)};
  apply_overrides(topo, routes, overrides);
  const std::vector<HostPair> flows = {{hosts.find("H1"), hosts.find("H3")},
                                       {hosts.find("H2"), hosts.find("H1")},
                                       {hosts.find("H3"), hosts.find("H2")}};
  const BufferDependencyGraph graph(topo, routes, flows);
  EXPECT_TRUE(graph.has_cycle());
  // S_i:h → S_(i+1):ccw where each flow enters, and S_i:ccw → S_(i+1):ccw round the ring.
  EXPECT_EQ(graph.edges(), 6);
  EXPECT_EQ(names(topo, graph.cyclic()), (std::vector<std::string>{"S1:ccw", "S2:ccw", "S3:ccw"}));
  EXPECT_EQ(names(topo, graph.example_cycle()),
            (std::vector<std::string>{"S1:ccw", "S2:ccw", "S3:ccw"}));
  // Each cycle entry depends on the next, the last on the first.
  const std::vector<EndpointId> cycle = graph.example_cycle();
  for (size_t i = 0; i < cycle.size(); ++i) {
    const auto& next = graph.successors(cycle[i]);
    EXPECT_NE(std::find(next.begin(), next.end(), cycle[(i + 1) % cycle.size()]), next.end());
  }
  // One flow fewer breaks the cycle: H3 → H2 was the dependency S1:ccw → S2:ccw.
  const BufferDependencyGraph two(topo, routes, std::span(flows).first(2));
  EXPECT_FALSE(two.has_cycle());
  EXPECT_TRUE(two.example_cycle().empty());
}

TEST(BufferDependency, RingOnShortestPathsHasNone) {
  // Three switches: every host is one switch-to-switch hop from every other; only the hosts'
  // ingresses wait on a neighbour's (S_i:h → both neighbours), a ring ingress on nothing.
  const Topology topo = from_spec("ring:3");
  const RouteTable routes = shortest_routes(topo);
  const BufferDependencyGraph graph(topo, routes, pairs_across_racks(routes.hosts()));
  EXPECT_FALSE(graph.has_cycle());
  EXPECT_EQ(graph.edges(), 6);
  for (int sw = 0; sw < 3; ++sw) {
    EXPECT_TRUE(graph.successors(topo.ingress(sw, 1)).empty());  // cw
    EXPECT_TRUE(graph.successors(topo.ingress(sw, 2)).empty());  // ccw
  }
}

TEST(BufferDependency, EveryEcmpMemberCounts) {
  // Four switches: the opposite host is two hops away both ways, an ECMP group of cw and
  // ccw. Flows hashed clockwise and flows hashed counter-clockwise each close a cycle.
  const Topology topo = from_spec("ring:4");
  const RouteTable routes = shortest_routes(topo);
  ASSERT_EQ(routes.next_ports(0, routes.hosts().find("H3")).size(), 2u);
  const BufferDependencyGraph graph(topo, routes, pairs_across_racks(routes.hosts()));
  EXPECT_TRUE(graph.has_cycle());
  EXPECT_EQ(graph.cyclic().size(), 8u);  // both directions: every ring ingress
  EXPECT_EQ(graph.example_cycle().size(), 4u);
}

TEST(BufferDependency, TreesHaveNone) {
  // A tree (one spine): no route can come back.
  const Topology tree = from_spec("leaf-spine:3,1,2");
  const RouteTable tree_routes = shortest_routes(tree);
  const BufferDependencyGraph tree_graph(tree, tree_routes,
                                         pairs_across_racks(tree_routes.hosts()));
  EXPECT_FALSE(tree_graph.has_cycle());
  EXPECT_GT(tree_graph.edges(), 0);
  // An intact fat-tree: shortest paths go up, then down (up-down routing, deadlock-free).
  const Topology fat = from_spec("fat-tree:4");
  const RouteTable fat_routes = shortest_routes(fat);
  const BufferDependencyGraph fat_graph(fat, fat_routes, pairs_across_racks(fat_routes.hosts()));
  EXPECT_FALSE(fat_graph.has_cycle());
}

TEST(BufferDependency, FailuresMakeValleysAndACycle) {
  // gfc-fat-tree-case.toml's three failures (GFC §6.2.2, Fig. 11): shortest paths then bounce
  // off aggregation switches of other pods, and some of them close S1 → L3 → S2 → L7 → S1.
  Topology fat = from_spec("fat-tree:4");
  std::vector<SwitchLink> failed;
  for (const SwitchLink& l : switch_links(fat)) {
    const std::string a = fat.at(l.switch_a).name, b = fat.at(l.switch_b).name;
    const auto is = [&](const char* x, const char* y) {
      return (a == x && b == y) || (a == y && b == x);
    };
    if (is("L1", "S2") || is("L5", "S1") || is("T1", "L2")) failed.push_back(l);
  }
  ASSERT_EQ(failed.size(), 3u);
  const Topology left = without_links(fat, failed);
  const RouteTable routes = shortest_routes(left);
  const BufferDependencyGraph graph(left, routes, pairs_across_racks(routes.hosts()));
  ASSERT_TRUE(graph.has_cycle());
  const std::vector<std::string> cyclic = names(left, graph.cyclic());
  for (const char* e : {"L3:S1", "S2:L3", "L7:S2", "S1:L7"})
    EXPECT_NE(std::find(cyclic.begin(), cyclic.end(), e), cyclic.end()) << e;
}

}  // namespace
}  // namespace fcswitch::topology

// How fclab --threads splits a network (lab/lab_partition.h): hosts with their switches, a
// fat-tree by pods, the lookahead the smallest delay between parts, and the refusals.

#include "lab/lab_partition.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "scenario/scenario_file.h"

namespace fcswitch::lab {
namespace {

constexpr uint64_t kTenGbps = 10'000'000'000;

LabScenario fat_tree_k4() {
  return load_lab_scenario(FCSWITCH_LAB_CONFIG_DIR "/fat-tree-k4.toml", {});
}

int part_of(const LabScenario& s, const LabPartition& p, const std::string& name) {
  for (size_t i = 0; i < s.nodes.size(); ++i)
    if (s.nodes[i].name == name) return p.part_of_node[i];
  ADD_FAILURE() << "no node " << name;
  return -1;
}

// A line of switches S0 … S(n−1), each with one host, every switch-to-switch link of `delay_ns`.
LabScenario line(int n, uint64_t delay_ns) {
  LabScenario s;
  for (int i = 0; i < n; ++i) {
    LabNode sw;
    sw.name = "S" + std::to_string(i);
    sw.config.ports.resize(3);
    s.nodes.push_back(sw);
    LabNode host;
    host.name = "H" + std::to_string(i);
    host.host = true;
    host.config.ports.resize(1);
    s.nodes.push_back(host);
    s.links.push_back({{2 * i, 0}, {2 * i + 1, 0}, kTenGbps, 500});
    if (i > 0) s.links.push_back({{2 * i - 2, 2}, {2 * i, 1}, kTenGbps, delay_ns});
  }
  return s;
}

std::string refusal(const LabScenario& s, int threads) {
  try {
    partition_lab(s, threads);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(LabPartition, OneThreadIsOnePart) {
  const LabScenario s = fat_tree_k4();
  const LabPartition p = partition_lab(s, 1);
  EXPECT_EQ(p.parts, 1);
  EXPECT_EQ(p.part_of_node, std::vector<int>(s.nodes.size(), 0));
  EXPECT_EQ(p.lookahead_ns, 0u);
}

TEST(LabPartition, AFatTreeSplitsByPodsItsHostsWithTheirSwitches) {
  const LabScenario s = fat_tree_k4();
  const LabPartition p = partition_lab(s, 2);
  ASSERT_EQ(p.parts, 2);
  // fat_tree(4): pod q holds L(2q+1), L(2q+2), T(2q+1), T(2q+2); T<t>'s hosts T<t>h1, T<t>h2.
  std::set<int> pods_in[2];
  for (int pod = 0; pod < 4; ++pod) {
    const int part = part_of(s, p, "T" + std::to_string(2 * pod + 1));
    for (const std::string& node :
         {"L" + std::to_string(2 * pod + 1), "L" + std::to_string(2 * pod + 2),
          "T" + std::to_string(2 * pod + 2)})
      EXPECT_EQ(part_of(s, p, node), part) << node << " of pod " << pod;
    for (int t = 2 * pod + 1; t <= 2 * pod + 2; ++t)
      for (int h = 1; h <= 2; ++h)
        EXPECT_EQ(part_of(s, p, "T" + std::to_string(t) + "h" + std::to_string(h)), part);
    pods_in[part].insert(pod);
  }
  EXPECT_EQ(pods_in[0].size(), 2u);
  EXPECT_EQ(pods_in[1].size(), 2u);
  // The parts hold the same ports, give or take a switch (the cores go where they balance).
  size_t ports[2] = {0, 0};
  for (size_t i = 0; i < s.nodes.size(); ++i)
    ports[p.part_of_node[i]] += s.nodes[i].config.ports.size();
  EXPECT_LE(ports[0] > ports[1] ? ports[0] - ports[1] : ports[1] - ports[0], 4u)
      << ports[0] << " and " << ports[1] << " ports";
  // The switch-to-switch links are of 1 µs, the hosts' of 0.5 µs; only the former are cut.
  EXPECT_EQ(p.lookahead_ns, 1000u);
}

TEST(LabPartition, ALinkWithoutDelayKeepsItsEndsTogether) {
  LabScenario s = line(4, 2000);
  s.links[4].delay_ns = 0;  // S1 - S2 (each switch comes after its host link and its link back)
  ASSERT_EQ(s.nodes[s.links[4].a.node].name, "S1");
  const LabPartition p = partition_lab(s, 2);
  EXPECT_EQ(part_of(s, p, "S1"), part_of(s, p, "S2"));
  EXPECT_NE(part_of(s, p, "S0"), part_of(s, p, "S3"));
  EXPECT_EQ(p.lookahead_ns, 2000u);
}

TEST(LabPartition, ThreadsAtMostTheParts) {
  EXPECT_EQ(partition_lab(line(3, 1000), 3).lookahead_ns, 1000u);
  EXPECT_EQ(refusal(line(3, 1000), 4),
            "--threads 4: the network splits into 3 parts at most (a host stays with its "
            "switch, and a link without delay keeps its ends together)");
  EXPECT_EQ(refusal(line(3, 0), 2),
            "--threads 2: the network splits into 1 part at most (a host stays with its "
            "switch, and a link without delay keeps its ends together)");
}

TEST(LabPartition, RefusesWhatRunsOnOneThreadOnly) {
  LabScenario wall = line(2, 1000);
  wall.clock = LabClock::kWall;
  EXPECT_EQ(refusal(wall, 2), "--threads 2: runs on clock = \"virtual\" only, found \"wall\"");
  LabScenario all = line(2, 1000);
  all.clock = LabClock::kVirtualPollAll;
  EXPECT_EQ(refusal(all, 2),
            "--threads 2: runs on clock = \"virtual\" only, found \"virtual-poll-all\"");
  LabScenario loops = line(2, 1000);
  loops.closed_loops.emplace_back();
  EXPECT_EQ(refusal(loops, 2),
            "--threads 2: closed-loop workloads run on one thread (a flow's end starts its "
            "host's next flow at the same instant, with no link delay between them)");
  EXPECT_EQ(refusal(line(2, 1000), 0), "--threads 0: expected 1 or more");
}

}  // namespace
}  // namespace fcswitch::lab

// fclab --threads N (lab/lab_partition.h) on more threads than this machine may have CPUs:
// LabNetwork takes any number of parts the network has (fclab's own check caps them at the
// CPUs), and the run must be one thread's, step for step, on three, four or six. The
// integration test lab_threads compares two threads through fclab, file by file.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lab/lab_network.h"
#include "results/lab_report.h"
#include "scenario/scenario_file.h"

namespace fcswitch::lab {
namespace {

const std::string kShippedScenarios = std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/";
const std::string kTestScenarios = std::string(FCSWITCH_SOURCE_DIR) + "/tests/lab/";

std::string summary_on(const std::string& file, const std::vector<std::string>& sets, int threads) {
  LabNetwork network(load_lab_scenario(file, sets), threads);
  const LabResult result = network.run();
  EXPECT_GT(result.packet_hops, 1'000u) << file << " on " << threads << " threads";
  return summary_json(result).dump();
}

TEST(LabThreads, ManyPartsGiveOneThreadsRun) {
  // The 12-switch ring, each switch and its host a part at most.
  const std::string ring = kTestScenarios + "ring-12.toml";
  const std::vector<std::string> ring_sets{"lab.duration=5ms"};
  const std::string one = summary_on(ring, ring_sets, 1);
  for (int threads : {3, 4, 6}) EXPECT_EQ(one, summary_on(ring, ring_sets, threads)) << threads;

  // The k = 4 fat-tree with a core link cut, not rerouted, and restored.
  const std::string tree = kShippedScenarios + "fat-tree-k4.toml";
  const std::vector<std::string> tree_sets{
      "lab.duration=2ms",
      R"(events=[{ at = "0.5ms", fail = "S1:L7", reroute = false }, { at = "1.5ms", restore = "S1:L7" }])"};
  EXPECT_EQ(summary_on(tree, tree_sets, 1), summary_on(tree, tree_sets, 3));

  // Pyrrha's incast: a few frames at a time between the parts, so that the next window often
  // starts at an arrival from another part.
  const std::string incast = kTestScenarios + "pyrrha-incast.toml";
  const std::string incast_one = summary_on(incast, {}, 1);
  for (int threads : {2, 3}) EXPECT_EQ(incast_one, summary_on(incast, {}, threads)) << threads;
}

}  // namespace
}  // namespace fcswitch::lab

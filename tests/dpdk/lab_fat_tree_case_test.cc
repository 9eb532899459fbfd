// The GFC paper's fat-tree deadlock case study (GFC §6.2.2, Figs. 11–14) in the lab
// (config/lab/gfc-fat-tree-case.toml): a k = 4 fat-tree with three failed links, four flows
// whose paths form the cyclic buffer dependency S_C1 → S_A3 → S_C2 → S_A7 → S_C1 (S1 → L3 → S2 →
// L7 → S1), and the victim F5: H4 → H5 on S_E3 (T3) alone. Per engine and switch model: the
// deadlock verdict and its cycle, every flow's rate, frame conservation, lossless drops; and
// the reader's [topology.failures] links.
//
// The paper: PFC and CBFC deadlock and F5 goes to 0; both GFCs do not, every flow 5 Gb/s. The
// lab gives the deadlocks under the default switch model (one FIFO per egress queue), and GFC's
// 5 Gb/s only under `queueing = "input-fair"`, where PFC and CBFC do not deadlock: the
// same split as the ring (docs/experiments/gfc.md). The tests pin both halves.

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "config/config_error.h"
#include "lab/lab_network.h"
#include "scenario/lab_scenario.h"
#include "scenario/scenario_file.h"

namespace fcswitch::lab {
namespace {

const std::string kCase = std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/gfc-fat-tree-case.toml";
// C/2 = the paper's 5 Gb/s, counted in frame bytes as the sinks count: 5 Gb/s × 1514 / 1538.
constexpr double kHalfLineBps = 5e9 * 1514 / 1538;
const std::string kInputFair = "switch.queueing=input-fair";

LabResult run(const std::string& file, std::vector<std::string> sets) {
  LabNetwork network(load_lab_scenario(file, sets));
  return network.run();
}

// Every frame accounted for: generated = received + dropped + in flight, nothing dropped at
// all, and the pool full again after shutdown.
void expect_conserved(const LabResult& r) {
  EXPECT_TRUE(r.conservation.holds())
      << r.conservation.generated << " generated, " << r.conservation.received << " received, "
      << r.conservation.dropped << " dropped, " << r.conservation.in_flight << " in flight";
  EXPECT_GT(r.conservation.generated, 0u);
  EXPECT_EQ(r.pool_in_use_after_shutdown, 0u);
  EXPECT_EQ(r.conservation.dropped, 0u);
  EXPECT_EQ(r.lossless_drops, 0u);
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.missing, 0u) << f.from << "→" << f.to;
}

const QueueResult& queue(const LabResult& r, const std::string& node, const std::string& port) {
  for (const QueueResult& q : r.queues)
    if (q.node == node && q.port == port && q.priority == 3) return q;
  throw std::runtime_error("no queue " + node + ":" + port);
}

// F1…F4 in the scenario's order, then F5.
const FlowResult& flow(const LabResult& r, int n) {
  return r.flows.at(static_cast<size_t>(n - 1));
}

// The four egress queues of the CBD, each waiting on the next switch's ingress from it (GFC
// §6.2.2: S_C1 → S_A3 → S_C2 → S_A7 → S_C1).
void expect_paper_cycle(const LabResult& r) {
  ASSERT_TRUE(r.deadlock.detected);
  std::vector<std::string> cycle = r.deadlock.cycle;
  std::rotate(cycle.begin(), std::find(cycle.begin(), cycle.end(), "S1:L3:prio3"), cycle.end());
  EXPECT_EQ(cycle,
            (std::vector<std::string>{"S1:L3:prio3", "L3:S2:prio3", "S2:L7:prio3", "L7:S1:prio3"}));
  EXPECT_LE(r.deadlock.formed_ns, r.deadlock.detected_ns);
}

// PFC and CBFC deadlock on the cycle; every flow, the victim F5 too, stops (Fig. 14: F5 → 0):
// T3's ingress from H4 holds F2's frames for the cycle, stays paused (PFC) or out of credit
// (CBFC), and H4 sends F5 no more than F2.
void expect_deadlock_stops_f5(const LabResult& r) {
  expect_paper_cycle(r);
  for (const FlowResult& f : r.flows) {
    EXPECT_EQ(f.tail_throughput_bps, 0) << f.from << "→" << f.to;
    EXPECT_GT(f.received_packets, 0u) << f.from << "→" << f.to;  // it moved before
  }
  expect_conserved(r);
}

TEST(LabGfcFatTreeCase, PfcDeadlocksOnTheFourHopCycleAndStopsTheVictim) {
  const LabResult r = run(kCase, {"flow_control.engine=pfc"});
  expect_deadlock_stops_f5(r);
  // Stuck at XOFF (280 KB) or above, within the 300 KB buffer: the headroom held.
  EXPECT_GE(queue(r, "L3", "S1").final_ingress_bytes, 277'000u);
  EXPECT_LT(queue(r, "L3", "S1").max_ingress_bytes, 300'000u);
}

TEST(LabGfcFatTreeCase, CbfcDeadlocksOnTheFourHopCycleAndStopsTheVictim) {
  const LabResult r = run(kCase, {"flow_control.engine=cbfc"});
  expect_deadlock_stops_f5(r);
  // Every credit spent: the buffer full to within a frame.
  EXPECT_GT(queue(r, "L3", "S1").final_ingress_bytes, 300'000u - 1538);
}

// No deadlock, and every flow, F5 too, at a crawl of 0.05–0.4 Gb/s (the paper: 5 Gb/s).
void expect_fifo_crawl(const LabResult& r) {
  EXPECT_FALSE(r.deadlock.detected);
  for (const FlowResult& f : r.flows) {
    EXPECT_GT(f.tail_throughput_bps, 0.05e9) << f.from << "→" << f.to;
    EXPECT_LT(f.tail_throughput_bps, 0.4e9) << f.from << "→" << f.to;
  }
}

// The default model, one FIFO per egress queue: no deadlock (the paper's verdict), but not
// the paper's 5 Gb/s: every queue of the cycle, and every flow's first, settles within a few
// KB of B_m = 300 KB, where GFC's map grants a cycle link ≈ 0.4 Gb/s, 0.2 per flow (as the
// ring's FIFO, docs/experiments/gfc.md). F5 moves at the same crawl: H4 is held back for F2's sake.
TEST(LabGfcFatTreeCase, TimeBasedGfcDoesNotDeadlockButCrawlsWithFifoQueues) {
  const LabResult r = run(kCase, {"flow_control.engine=gfc-time"});
  expect_fifo_crawl(r);
  EXPECT_GT(queue(r, "L3", "S1").steady_ingress_bytes, 285'000);
  expect_conserved(r);
}

// Buffer-based GFC at the paper's B_1 = 281 KB: 9892 bytes between B_1 and B_top = B_m − (1+c)·F
// = 290892 (room for a 1518-byte frame and c = 5 committed past TX's gate; the paper's 19 KB
// between B_1 and B_m), against the lab's 2Cτ = 36 KB (τ = 14.5 µs: five frames each way behind
// and past the gates). Theorem 4.1 is broken (the file allows it, with a warning), yet here the
// queues' overshoot past the last stage stays within the room below B_m (292 KB at most):
// nothing is lost. No deadlock; the FIFO's crawl.
TEST(LabGfcFatTreeCase, BufferBasedGfcAtThePapersB1StaysBelowBmWithTheLabsTau) {
  const LabResult r = run(kCase, {"flow_control.engine=gfc-buffer"});
  expect_fifo_crawl(r);
  expect_conserved(r);
  for (const QueueResult& q : r.queues) EXPECT_LT(q.max_ingress_bytes, 300'000u) << q.node;
}

// With B_1 within Theorem 4.1 for the lab's τ (B_m − 2Cτ − (1+c)·F = 254642 bytes; the paper's
// B_m − 2Cτ = 263.75 KB) nothing is dropped.
TEST(LabGfcFatTreeCase, BufferBasedGfcWithinTheoremLosesNothing) {
  const LabResult r =
      run(kCase, {"flow_control.engine=gfc-buffer", "flow_control.gfc-buffer.b1=254KB"});
  expect_fifo_crawl(r);
  expect_conserved(r);
}

// Each input served in turn: both GFCs give every flow, F5 included, its 5 Gb/s (the paper's
// Figs. 12–14); the paths are the paper's, each link of the cycle carrying two flows at C/2.
void expect_half_line_each(const LabResult& r) {
  EXPECT_FALSE(r.deadlock.detected);
  for (const FlowResult& f : r.flows)
    EXPECT_NEAR(f.tail_throughput_bps, kHalfLineBps, 0.02 * kHalfLineBps) << f.from << "→" << f.to;
  for (const auto& [node, port] : std::vector<std::pair<std::string, std::string>>{
           {"L3", "S1"}, {"S2", "L3"}, {"L7", "S2"}, {"S1", "L7"}, {"T3", "T3h1"}})
    EXPECT_NEAR(queue(r, node, port).tail_input_bps, 2 * kHalfLineBps, 0.04 * kHalfLineBps)
        << node << ":" << port;
}

TEST(LabGfcFatTreeCase, TimeBasedGfcGivesEveryFlowHalfTheLinkWithInputsServedInTurn) {
  const LabResult r = run(kCase, {"flow_control.engine=gfc-time", kInputFair});
  expect_half_line_each(r);
  expect_conserved(r);
}

// The paper's B_1 again: 5 Gb/s each; the flows' entry queues (S1:L1, S2:L5, L7:T7, …) hold
// near B_1, and their overshoot stays within B_m here (the FIFO's crawl above does not).
TEST(LabGfcFatTreeCase, BufferBasedGfcGivesEveryFlowHalfTheLinkWithInputsServedInTurn) {
  const LabResult r = run(kCase, {"flow_control.engine=gfc-buffer", kInputFair});
  expect_half_line_each(r);
  expect_conserved(r);
}

// …and with inputs served in turn PFC does not deadlock: the cycle's ingress queues stay far
// below XOFF (each cycle link's two flows arrive at C/2 each, fair-shared where they enter),
// and the pauses stay on the flows' entry queues, which form no cycle.
TEST(LabGfcFatTreeCase, PfcDoesNotDeadlockWithInputsServedInTurn) {
  const LabResult r = run(kCase, {"flow_control.engine=pfc", kInputFair});
  EXPECT_FALSE(r.deadlock.detected);
  EXPECT_LT(queue(r, "L3", "S1").max_ingress_bytes, 150'000u);
  EXPECT_GT(flow(r, 5).tail_throughput_bps, 0.95 * kHalfLineBps);
  expect_conserved(r);
}

TEST(LabGfcFatTreeCase, FailsTheThreeLinksBeforeTheRun) {
  const LabScenario s = load_lab_scenario(kCase, {});
  EXPECT_EQ(s.failed_links,
            (std::vector<std::string>{"S2:L1-L1:S2", "S1:L5-L5:S1", "T1:L2-L2:T1"}));
  EXPECT_FALSE(s.failure_seed.has_value());  // named, not drawn
}

TEST(LabTopologyFailures, NamedLinksAreCheckedWhereTheyAreWritten) {
  const auto problems = [](const std::string& links, const std::string& extra = "") {
    try {
      parse_lab_scenario(
          "[lab]\nduration = \"1ms\"\n[topology]\nspec = \"fat-tree:4\"\n"
          "[topology.failures]\nlinks = " +
              links + "\n" + extra,
          "bad.toml", {});
    } catch (const config::ConfigError& e) {
      return e.problems();
    }
    return std::vector<std::string>{};
  };
  EXPECT_EQ(problems(R"(["L1-S2", "S1:L5-L5:S1"])"), std::vector<std::string>{});
  EXPECT_EQ(problems(R"(["L1-S3"])"),
            (std::vector<std::string>{"bad.toml:6:10: topology.failures.links[0]: expected a "
                                      "switch-to-switch link, \"A-B\" or \"A:port-B:port\", "
                                      "found string \"L1-S3\""}));
  EXPECT_EQ(problems(R"(["S1:L3-L3:S2"])"),  // ports that are not the link's ends
            (std::vector<std::string>{"bad.toml:6:10: topology.failures.links[0]: expected a "
                                      "switch-to-switch link, \"A-B\" or \"A:port-B:port\", "
                                      "found string \"S1:L3-L3:S2\""}));
  EXPECT_EQ(problems(R"(["L1-S2", "S2-L1"])"),
            (std::vector<std::string>{
                "bad.toml:6:19: topology.failures.links[1]: names a link named before it"}));
  // T1's two uplinks cut T1's hosts off.
  const auto cut = problems(R"(["T1-L1", "T1-L2"])");
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_NE(cut[0].find("topology.failures.links: expected links whose failure leaves every "
                        "host reaching every other"),
            std::string::npos)
      << cut[0];
  EXPECT_EQ(problems(R"(["T1-L1", "T1-L2"])", "keep_connected = false\n"),
            std::vector<std::string>{});
  // A probability that is not one: that one problem, not also "no probability".
  EXPECT_EQ(problems("[]", "probability = 1.5\n"),
            (std::vector<std::string>{"bad.toml:7:15: topology.failures.probability: expected a "
                                      "number in [0, 1], found float 1.5"}));
  // Links that are not a list: that one problem, not also "no probability".
  EXPECT_EQ(problems(R"("L1-S2")"),
            (std::vector<std::string>{"bad.toml:6:9: topology.failures.links: expected an array, "
                                      "found string \"L1-S2\""}));
}

// Failures that cut every link of a switch (core S1's four) leave it out of the network, with
// a warning, rather than refusing a switch with no ports; the rest runs.
TEST(LabTopologyFailures, ASwitchWhoseEveryLinkFailedIsLeftOut) {
  const LabScenario s = parse_lab_scenario(
      "[lab]\nduration = \"200us\"\n[topology]\nspec = \"fat-tree:4\"\n[topology.failures]\n"
      "links = [\"S1-L1\", \"S1-L3\", \"S1-L5\", \"S1-L7\"]\n[[flows]]\nfrom = \"T1h1\"\nto = "
      "\"T5h1\"\n",
      "cut.toml", {});
  EXPECT_EQ(s.failed_links.size(), 4u);
  EXPECT_EQ(s.nodes.size(), 35u);  // 19 switches and 16 hosts
  for (const LabNode& node : s.nodes) EXPECT_NE(node.name, "S1");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0].rfind("cut.toml:5:1: topology.failures: expected failures that leave "
                                "every switch a link, found every link of S1 failed: it is left "
                                "out of the network",
                                0),
            0u)
      << s.warnings[0];
  LabNetwork network(s);
  const LabResult r = network.run();
  EXPECT_TRUE(r.conservation.holds());
  EXPECT_GT(r.flows[0].received_packets, 0u);
  // What names it later is told why it is not there.
  const auto refused = [](const std::string& more) {
    try {
      parse_lab_scenario(
          "[lab]\nduration = \"200us\"\n[topology]\nspec = \"fat-tree:4\"\n"
          "[topology.failures]\nlinks = [\"S1-L1\", \"S1-L3\", \"S1-L5\", \"S1-L7\"]\n" +
              more,
          "cut.toml", {});
    } catch (const config::ConfigError& e) {
      return e.problems();
    }
    return std::vector<std::string>{"accepted"};
  };
  EXPECT_EQ(refused("[[switches]]\nname = \"S1\"\n"),
            (std::vector<std::string>{"cut.toml:8:8: switches[0].name: \"S1\" names a switch left "
                                      "out of the network: every link of it failed "
                                      "([topology.failures])"}));
  const auto event =
      refused("[[events]]\nat = \"100us\"\nswitch = \"S1\"\nroutes = { T1h1 = \"L1\" }\n");
  ASSERT_EQ(event.size(), 1u);
  EXPECT_NE(event[0].find("events[0].switch: expected the name of a switch in the network (every "
                          "link of this one failed before the run: it is left out)"),
            std::string::npos)
      << event[0];
}

// Up-down routes recomputed at an event are walked, not only the wires: with T1 - L1 and
// T5 - L6 down, T1's frames go up to L2, whose cores reach pod 3 at L6 only, and T5 is below
// L5: a valley, so up-down gives T1 no route to T5h1. Shortest paths take the valley, and the
// same events are a run.
TEST(LabTopologyFailures, UpDownRoutesRecomputedAtAnEventAreWalked) {
  const std::string file = std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-k4.toml";
  const auto problems = [&](const std::vector<std::string>& sets) {
    try {
      load_lab_scenario(file, sets);
    } catch (const config::ConfigError& e) {
      return e.problems();
    }
    return std::vector<std::string>{"accepted"};
  };
  const std::string expected =
      "expected the routes from here on to take every flow to its "
      "destination (";
  const std::string events =
      R"(events=[{ at = "1ms", fail = "T1:L1" }, { at = "2ms", fail = "T5:L6" }])";
  EXPECT_EQ(problems({"topology.routing=updown", events}),
            (std::vector<std::string>{"--set " + events + ":1:41: events[1]: " + expected +
                                      "reroute = false keeps the routes, and the frames are "
                                      "lost at the cut link; [lab] flood_unrouted = true floods "
                                      "them), found none to T5h1 at T1 (flows[0])"}));
  EXPECT_EQ(problems({events}), std::vector<std::string>{"accepted"});
  // A switch's own route installed during the run is walked likewise: L1's to T5h1 by S1, a
  // core that has no up-down route to it with S1 - L5 down.
  const std::string route = R"(events=[{ at = "1ms", switch = "L1", routes = { T5h1 = "S1" } }])";
  EXPECT_EQ(problems({"topology.routing=updown", R"(topology.failures.links=["L5-S1"])", route}),
            (std::vector<std::string>{"--set " + route + ":1:9: events[0]: " + expected +
                                      "[lab] flood_unrouted = true floods them), found none to "
                                      "T5h1 at S1 (flows[0])"}));
  // A walk ends at a link that is down: frames sent into it are lost there, not flooded.
  EXPECT_EQ(
      problems({"topology.routing=updown",
                R"(switches=[{ name = "L1", routes = { T5h1 = "S1" } }])",
                R"(events=[{ at = "1ms", fail = "L1:S1" }, { at = "1ms", fail = "L5:S1" }])"}),
      std::vector<std::string>{"accepted"});
  // Before the run, a closed loop's hosts are walked pair by pair where the routes are
  // up-down: its later flows may take any pair, and failures leave valleys.
  const auto loop = problems(
      {"topology.routing=updown", R"(topology.failures.links=["L1-S1", "L1-S2", "T5-L6"])",
       R"(flows=[])", R"(workloads=[{ kind = "closed-loop", cdf = "enterprise", priority = 3 }])"});
  ASSERT_EQ(loop.size(), 1u);
  EXPECT_NE(loop[0].find("workloads[0]: expected a route to "), std::string::npos) << loop[0];
}

// A --set value is placed at its --set, not at FILE:0:0 (toml++ copies a node without its
// place: the merge moves them).
TEST(LabTopologyFailures, ASetValueIsPlacedAtItsSet) {
  try {
    parse_lab_scenario("[lab]\nduration = \"1ms\"\n[topology]\nspec = \"fat-tree:4\"\n", "bad.toml",
                       {"topology.failures.links=L1-S2"});
    FAIL() << "accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.problems(),
              (std::vector<std::string>{"--set topology.failures.links=L1-S2:1:25: "
                                        "topology.failures.links: expected an array, found string "
                                        "\"L1-S2\""}));
  }
}

}  // namespace
}  // namespace fcswitch::lab

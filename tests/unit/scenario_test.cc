// The scenario reader without an EAL: where it places each problem (file:line:column, or the
// --set that gave the value), what it refuses before a run (routes, transports, node configs),
// and what [topology] sets on every link. The runs of scenarios are in tests/dpdk/lab_test.cc.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../lab_scenario_texts.h"
#include "config/config_error.h"
#include "config/text_file.h"
#include "scenario/lab_scenario.h"
#include "scenario/route_memory.h"
#include "scenario/scenario_file.h"

namespace fcswitch::lab {
namespace {

using scenario_texts::kStar;
using scenario_texts::problems_of;

const std::string kRing = std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/gfc-ring.toml";

// [topology] rate and delay are every link's, the scenario's own [[links]] included, unless a
// link gives its own (config/lab/pabo-tree.toml's 1 Gb/s tree has no generated links): the
// star's links take the rate and keep their own 1 µs.
TEST(LabScenario, TopologyRateAndDelayApplyToListedLinks) {
  const LabScenario s =
      parse_lab_scenario(kStar, "star.toml", {"topology.rate=1Gbps", "topology.delay=2us"});
  ASSERT_EQ(s.links.size(), 4u);
  for (const LabLinkSpec& link : s.links) {
    EXPECT_EQ(link.rate_bps, 1'000'000'000u);
    EXPECT_EQ(link.delay_ns, 1'000u);
  }
  const LabScenario plain = parse_lab_scenario(kStar, "star.toml", {});
  EXPECT_EQ(plain.links.front().rate_bps, 10'000'000'000u);  // no [topology]: the default
}

TEST(LabScenario, TopologyErrorsNameTheirPlace) {
  const auto problems = [](const std::string& text) { return problems_of(text); };
  const auto bad_spec = problems("[lab]\nduration = \"1ms\"\n[topology]\nspec = \"fat-tree:3\"\n");
  ASSERT_EQ(bad_spec.size(), 1u);
  EXPECT_EQ(bad_spec[0].rfind("bad.toml:4:8: topology.spec: expected a topology (", 0), 0u)
      << bad_spec[0];
  EXPECT_NE(bad_spec[0].find("found \"fat-tree:3\" (fat-tree:K: expected an even K >= 2, found 3)"),
            std::string::npos)
      << bad_spec[0];
  // The network's hosts are unknown then: the flows, links and events naming them add nothing.
  const auto with_flows = problems(
      "[lab]\nduration = \"1ms\"\n[topology]\nspec = \"fat-tree:x\"\n[[flows]]\nfrom = "
      "\"T1h1\"\nto = \"T5h1\"\n[[links]]\na = \"T1h1\"\nb = \"T1:nic\"\n[[events]]\nat = "
      "\"0.5ms\"\nfail = \"T1:L1\"\n");
  ASSERT_EQ(with_flows.size(), 1u) << with_flows.back();
  EXPECT_EQ(with_flows[0].rfind("bad.toml:4:8: topology.spec: expected a topology (", 0), 0u)
      << with_flows[0];

  const auto bad_tier = problems(
      "[lab]\nduration = \"1ms\"\n[topology]\nspec = \"ring:3\"\n[topology.tier.top]\n"
      "rate = \"1Gbps\"\n[[hosts]]\nname = \"H1\"\n");
  EXPECT_NE(std::find_if(bad_tier.begin(), bad_tier.end(),
                         [](const std::string& p) {
                           return p.find(
                                      "topology.tier.top: expected a tier: \"hosts\" or a "
                                      "number 0-6") != std::string::npos;
                         }),
            bad_tier.end());
  EXPECT_NE(std::find_if(bad_tier.begin(), bad_tier.end(),
                         [](const std::string& p) {
                           return p.rfind(
                                      "bad.toml:8:8: hosts[0].name: \"H1\" names another node "
                                      "already (of [topology]",
                                      0) == 0;
                         }),
            bad_tier.end());

  const std::string islands_text = R"([lab]
duration = "1ms"
[topology]
routing = "shortest"
[[hosts]]
name = "H1"
[[hosts]]
name = "H2"
[[switches]]
name = "S1"
ports = [{ name = "h" }]
[[switches]]
name = "S2"
ports = [{ name = "h" }]
[[links]]
a = "H1"
b = "S1:h"
[[links]]
a = "H2"
b = "S2:h"
)";
  const auto islands = problems(islands_text + R"([[flows]]
from = "H1"
to = "H2"
)");
  EXPECT_EQ(islands, (std::vector<std::string>{
                         "bad.toml:21:1: flows[0]: expected hosts the network joins, found H1 "
                         "and H2 unconnected"}));
  // The same flow given by a --set is placed at the --set, not at a line of the file.
  try {
    parse_lab_scenario(islands_text, "bad.toml", {R"(flows=[{ from = "H1", to = "H2" }])"});
    FAIL() << "accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.problems(), (std::vector<std::string>{
                                R"(--set flows=[{ from = "H1", to = "H2" }]:1:8: flows[0]: )"
                                "expected hosts the network joins, found H1 and H2 "
                                "unconnected"}));
  }
}

TEST(LabScenario, ErrorsNameTheirPlace) {
  const std::string text = R"([lab]
duration = "1ms"
[[hosts]]
name = "H1"
[[switches]]
name = "S1"
ports = [{ name = "h" }, { name = "x", rate = "1Gbps" }]
[[links]]
a = "H1"
b = "S1:nope"
[[flows]]
from = "H1"
to = "H9"
)";
  try {
    parse_lab_scenario(text, "bad.toml", {"flow_control.engine=bogus"});
    FAIL() << "accepted";
  } catch (const config::ConfigError& e) {
    const std::vector<std::string> expected{
        "bad.toml:10:5: links[0].b: expected a host name, or switch:port with a port in that "
        "switch's ports, found string \"S1:nope\"",
        "bad.toml:13:6: flows[0].to: expected the name of a host in [[hosts]], found string "
        "\"H9\"",
        // S1 has two ports unlinked and one bad end names it: x is unlinked of its own.
        "bad.toml:5:1: S1:h: a port without a link (every port needs one)",
        "bad.toml:5:1: S1:x: a port without a link (every port needs one)"};
    for (const std::string& m : expected)
      EXPECT_NE(std::find(e.problems().begin(), e.problems().end(), m), e.problems().end())
          << m << "\nin:\n"
          << e.what();
    // The refused link's good end is not also a port without a link.
    for (const std::string& p : e.problems())
      EXPECT_EQ(p.find("H1: a port without a link"), std::string::npos) << p;
  }
  // One bad name, and the one port it meant unlinked: one line.
  std::string star = kStar;
  star.replace(star.find(R"(b = "S1:a")"), 10, R"(b = "S1:aa")");
  EXPECT_EQ(problems_of(star),
            (std::vector<std::string>{"bad.toml:27:5: links[0].b: expected a host name, or "
                                      "switch:port with a port in that switch's ports, found "
                                      "string \"S1:aa\""}));
  // Where the link is right, the port nothing links is named.
  try {
    parse_lab_scenario(text, "bad.toml", {"links=[{ a = \"H1\", b = \"S1:h\" }]"});
    FAIL() << "accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(std::find(e.problems().begin(), e.problems().end(),
                        "bad.toml:5:1: S1:x: a port without a link (every port needs one)"),
              e.problems().end())
        << e.what();
  }
}

// The route checks walk what the run will send: what a transport sends back to the source
// (ACKs, DCQCN's CNPs) by the same FIBs, and, where events come at time 0, the routes after
// them (applied before any frame moves), a flow's own line where the routes before them failed
// it the same way. A routing that cannot be computed is one line, not one a flow as well.
TEST(LabScenario, RouteChecksWalkWhatTheRunSends) {
  const std::string text =
      config::read_text_file(std::string(FCSWITCH_SOURCE_DIR) + "/tests/lab/flood-no-route.toml");
  const auto problems = [&](std::vector<std::string> sets) {
    sets.insert(sets.begin(), "lab.flood_unrouted=false");  // the file floods on purpose
    return problems_of(text, sets);
  };
  const auto one_line_with = [](const std::vector<std::string>& lines, const std::string& text) {
    return lines.size() == 1 && lines[0].find(text) != std::string::npos;
  };
  const std::string unrouted_h1 = "flows[0]: expected a route to H1 (its transport's ";
  const std::string at_s1 = ") on every switch its frames reach, found none at S1";
  const std::string h2 = R"(switches.routes={ H2 = "b" })";
  EXPECT_EQ(problems({h2}), std::vector<std::string>{"accepted"});
  const auto acks = problems({h2, "flows.transport=window"});
  EXPECT_TRUE(one_line_with(acks, unrouted_h1 + "ACKs" + at_s1)) << testing::PrintToString(acks);
  const auto cnps = problems({h2, "flows.transport=dcqcn"});
  EXPECT_TRUE(one_line_with(cnps, unrouted_h1 + "CNPs" + at_s1)) << testing::PrintToString(cnps);
  // Frames that cannot get there bring nothing back: one line for the flow.
  const auto neither = problems({"flows.transport=window"});
  EXPECT_TRUE(one_line_with(neither, "flows[0]: expected a route to H2 on every switch"))
      << testing::PrintToString(neither);
  // A route given at time 0 is the first the frames meet ...
  const std::string at_start = R"(events=[{ at = "0ms", switch = "S1", routes = { H2 = "b" } }])";
  EXPECT_EQ(problems({at_start}), std::vector<std::string>{"accepted"});
  // ... and a route missing before the events at time 0 and after them is the flow's, not
  // theirs.
  const auto start_acks = problems({at_start, "flows.transport=window"});
  EXPECT_TRUE(one_line_with(start_acks, unrouted_h1 + "ACKs" + at_s1))
      << testing::PrintToString(start_acks);
  const auto unrelated = problems({R"(events=[{ at = "0ms", fail = "H3" }])"});
  EXPECT_TRUE(one_line_with(unrelated, "flows[0]: expected a route to H2 on every switch"))
      << testing::PrintToString(unrelated);
  const auto tiers = problems_of(
      config::read_text_file(std::string(FCSWITCH_SOURCE_DIR) + "/tests/lab/ring-12.toml"),
      {"topology.routing=updown"});
  ASSERT_EQ(tiers.size(), 1u) << testing::PrintToString(tiers);
  EXPECT_NE(tiers[0].find("updown routing needs a tier on every switch"), std::string::npos);
}

// Under static routes a restore lets frames through the link again, to whatever routes lie
// beyond it: a refusal at its time names it, not a cut beside it that only ends walks. The GFC
// ring with S2 given no route to H3: H1 -> H3 reaches S2 only while S1 - S2 is up.
TEST(LabScenario, ARestoreIsBlamedForTheSwitchesItLetsFramesReach) {
  std::string ring =
      config::read_text_file(std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/gfc-ring.toml");
  const std::string s2_routes = R"(routes = { H2 = "h", H3 = "cw", H1 = "cw" })";
  const size_t at = ring.find(s2_routes);
  ASSERT_NE(at, std::string::npos);
  ring.replace(at, s2_routes.size(), R"(routes = { H2 = "h", H1 = "cw" })");
  EXPECT_EQ(problems_of(ring, {R"(events=[{ at = "0ms", fail = "S1:cw" }])"}),
            std::vector<std::string>{"accepted"});
  const std::string events = R"(events=[{ at = "0ms", fail = "S1:cw" }, )"
                             R"({ at = "0.6ms", restore = "S1:cw" }, )"
                             R"({ at = "0.6ms", fail = "S3:cw" }])";
  EXPECT_EQ(problems_of(ring, {events}),
            (std::vector<std::string>{
                "--set " + events +
                ":1:41: events[1]: expected the routes from here on to take every flow to its "
                "destination ([lab] flood_unrouted = true floods them), found none to H3 at S2 "
                "(flows[0])"}));
}

// A switch's `routes` to a name no host has is placed at that route in the file, or at the
// --set that gave it (the merged copy the switch's config is read from has no places).
TEST(LabScenario, ARouteToAnUnknownHostIsPlacedAtTheRoute) {
  std::string star = kStar;
  const std::string routes = R"(routes = { A = "a", B = "b", C = "c", D = "d" })";
  star.replace(star.find(routes), routes.size(),
               R"(routes = { A = "a", B = "b", C = "c", D = "d", H9 = "d" })");
  EXPECT_EQ(problems_of(star), (std::vector<std::string>{"bad.toml:24:48: S1.routes.H9: expected "
                                                         "the name of a host, found a key no "
                                                         "host has"}));
  EXPECT_EQ(problems_of(kStar, {R"(switches.routes={ A = "a", H7 = "a" })"}),
            (std::vector<std::string>{R"(--set switches.routes={ A = "a", H7 = "a" }:1:28: )"
                                      "S1.routes.H7: expected the name of a host, found a key no "
                                      "host has"}));
}

// A table set over an array of tables goes over each element, and each element's problem is
// placed at the --set (line 1, the value's column), not at FILE:0:0.
// Flows that could not run as written are refused, each at its key: a sender list with no
// sender, a start after the run's end (an event there is refused too), and priority beside dscp
// (priority 3 with dscp 10 would send at DSCP 10's lossy priority 1).
TEST(LabScenario, FlowsThatCannotRunAsWrittenAreRefused) {
  std::string star = kStar;
  const auto replace = [&](const std::string& from, const std::string& to) {
    star.replace(star.find(from), from.size(), to);
  };
  replace("pattern = \"incast\"\nfrom = [\"A\", \"B\"]", "from = []");
  replace("start = \"1ms\"", "start = \"25ms\"");
  replace("priority = 3\npattern = \"on-off\"", "priority = 3\ndscp = 10\npattern = \"on-off\"");
  EXPECT_EQ(problems_of(star),
            (std::vector<std::string>{
                "bad.toml:42:8: flows[0].from: expected a host or a list of hosts, found an empty "
                "list",
                "bad.toml:51:9: flows[1].start: expected a time before the end of the run "
                "(20000000 ns), found 25000000 ns",
                "bad.toml:56:8: flows[2].dscp: expected priority or dscp, not both, found dscp "
                "beside priority on line 55"}));
}

// The route table grows as switches × hosts: a network whose routes cannot fit is refused with
// the figures before they are computed (fat-tree:64 spent a minute and died of bad_alloc),
// while the papers' largest lab networks pass on a machine like CI's (24 GiB).
TEST(LabScenario, RoutesThatCannotFitInMemoryAreRefusedBeforeTheyAreComputed) {
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  // fat-tree:64: 5 120 switches, 65 536 hosts.
  EXPECT_EQ(route_memory_problem(5120, 65536, 24 * kGiB),
            "5120 switches routing to 65536 hosts: about 17.5 GiB of routes, 24.0 GiB available");
  // GFC §6.2.3's and Pyrrha's fat-tree K = 16 (320 switches, 1 024 hosts), and K = 32 (1 280
  // switches, 8 192 hosts: 0.5 GiB of routes).
  EXPECT_EQ(route_memory_problem(320, 1024, 24 * kGiB), std::nullopt);
  EXPECT_EQ(route_memory_problem(1280, 8192, 24 * kGiB), std::nullopt);
  EXPECT_GT(available_memory_bytes(), 0u);
  // A scenario's: fat-tree:110 (15 125 switches, 332 750 hosts, 262.5 GiB of routes: refused
  // wherever this runs) at its spec, in a second rather than after it is laid out.
  const std::vector<std::string> problems = problems_of(
      config::read_text_file(std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-k4.toml"),
      {"topology.spec=fat-tree:110"});
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems.front().rfind(
                "--set topology.spec=fat-tree:110:1:15: topology.spec: expected a network whose "
                "routes fit in half the memory available, found \"fat-tree:110\" (15125 switches "
                "routing to 332750 hosts: about 262.5 GiB of routes, ",
                0),
            0u)
      << problems.front();
}

// Hosts the network cuts off are said to be, by name, even when no flow asks for them (a
// Jellyfish of 2 network ports a switch falls apart into rings).
TEST(LabScenario, HostsCutOffFromTheNetworkAreWarnedOf) {
  const LabScenario s = parse_lab_scenario(R"([lab]
name = "cut"
duration = "1ms"
clock = "virtual"
[topology]
spec = "jellyfish:10,4,2"
)",
                                           "cut.toml", {});
  EXPECT_EQ(s.warnings,
            std::vector<std::string>{
                "cut.toml: topology: 6 of 20 hosts cannot reach the part of the network holding "
                "the most hosts (J3h1, J3h2, J8h1, J8h2, J9h1 and 1 more); 84 host pairs in all "
                "cannot reach each other"});
  // A connected one says nothing.
  EXPECT_TRUE(parse_lab_scenario(R"([lab]
name = "whole"
duration = "1ms"
clock = "virtual"
[topology]
spec = "fat-tree:4"
)",
                                 "whole.toml", {})
                  .warnings.empty());
}

// A port name given twice on one switch is named as such, not as a port without a link.
TEST(LabScenario, APortNamedTwiceIsNamedAsSuch) {
  std::string star = kStar;
  const std::string ports = R"({ name = "d" }])";
  star.replace(star.find(ports), ports.size(), R"({ name = "d" }, { name = "d" }])");
  EXPECT_EQ(problems_of(star),
            (std::vector<std::string>{"bad.toml:23:83: switches[0].ports[4].name: "
                                      "\"d\" names another port of S1 already"}));
}

TEST(LabScenario, ASetOverEveryFlowIsPlacedAtItsSet) {
  try {
    load_lab_scenario(kRing, {"flows.rate=fast"});  // its three flows
    FAIL() << "accepted";
  } catch (const config::ConfigError& e) {
    const std::string expected =
        ": expected a rate in bit/s (integer, or a string such as "
        "\"10Gbps\") in [1000, 400000000000], found string \"fast\"";
    EXPECT_EQ(e.problems(),
              (std::vector<std::string>{"--set flows.rate=fast:1:12: flows[0].rate" + expected,
                                        "--set flows.rate=fast:1:12: flows[1].rate" + expected,
                                        "--set flows.rate=fast:1:12: flows[2].rate" + expected}));
  }
}

// A closed loop under static routes: its later flows may go between any two of its hosts in
// different racks, so a route missing for any such pair is refused before the run (here S2 has
// none to H2), not only one its first flows would use (with seed 5 none of them goes from S2's
// rack to H2).
TEST(LabScenario, ClosedLoopNeedsStaticRoutesBetweenAllItsRacks) {
  const std::string text = R"([lab]
duration = "1ms"
[switch]
mac_learning = false
[[hosts]]
name = "H1"
[[hosts]]
name = "H2"
[[hosts]]
name = "H3"
[[hosts]]
name = "H4"
[[switches]]
name = "S1"
ports = [{ name = "h1" }, { name = "h2" }, { name = "s2" }]
routes = { H1 = "h1", H2 = "h2", H3 = "s2", H4 = "s2" }
[[switches]]
name = "S2"
ports = [{ name = "h3" }, { name = "h4" }, { name = "s1" }]
routes = { H3 = "h3", H4 = "h4", H1 = "s1" }
[[links]]
a = "H1"
b = "S1:h1"
[[links]]
a = "H2"
b = "S1:h2"
[[links]]
a = "H3"
b = "S2:h3"
[[links]]
a = "H4"
b = "S2:h4"
[[links]]
a = "S1:s2"
b = "S2:s1"
[[workloads]]
kind = "closed-loop"
cdf = "enterprise"
hosts = ["H1", "H3", "H4", "H2"]
seed = 5
)";
  const std::string missing =
      "bad.toml:36:1: workloads[0]: expected a route to H2 on every switch its frames reach, "
      "found none at S2 (mac_learning = false: they would be flooded to every host; [lab] "
      "flood_unrouted = true if that is meant)";
  const std::vector<std::string> problems = problems_of(text);
  EXPECT_NE(std::find(problems.begin(), problems.end(), missing), problems.end())
      << ::testing::PrintToString(problems);
  // With the route, accepted.
  std::string routed = text;
  const std::string without = R"(H1 = "s1" })";
  routed.replace(routed.find(without), without.size(), R"(H1 = "s1", H2 = "s1" })");
  EXPECT_EQ(problems_of(routed), std::vector<std::string>{"accepted"});
}

// [transport] and a flow's transport: a window under one frame, DCQCN timers of 0, a rate
// DCQCN would override; each at its place, and nothing runs.
TEST(LabScenario, TransportErrorsNameTheirPlace) {
  const std::string text = R"([lab]
duration = "1ms"
[transport.window]
window = "1000"
rto = 0
[transport.dcqcn]
cnp_interval = "0us"
g = 0
[transport.timely]
t_low = "600us"
[[hosts]]
name = "H1"
[[hosts]]
name = "H2"
[[switches]]
name = "S1"
ports = [{ name = "a" }, { name = "b" }]
routes = { H1 = "a", H2 = "b" }
[[links]]
a = "H1"
b = "S1:a"
[[links]]
a = "H2"
b = "S1:b"
[[flows]]
from = "H1"
to = "H2"
transport = "window"
[[flows]]
from = "H2"
to = "H1"
transport = "dcqcn"
rate = "1Gbps"
[[flows]]
from = "H1"
to = "H2"
frame = 64
transport = "timely"
)";
  const std::vector<std::string> expected{
      "bad.toml:5:7: transport.window.rto: expected a duration in ns (integer, or a string "
      "such as \"90us\", \"200ms\") in [1, 3600000000000], found integer 0",
      "bad.toml:7:16: transport.dcqcn.cnp_interval: expected a duration in ns (integer, or a "
      "string such as \"90us\", \"200ms\") in [1, 3600000000000], found string \"0us\"",
      "bad.toml:8:5: transport.dcqcn.g: expected a number in [1e-09, 1], found integer 0",
      "bad.toml:10:9: transport.timely.t_low: expected T_low below T_high (500000 ns), found "
      "600000 ns",
      "bad.toml:28:13: flows[0].transport: expected a window ([transport.window] window, 1000 "
      "bytes) of at least one frame (1514 bytes), found string \"window\"",
      "bad.toml:33:8: flows[1].rate: expected no rate on a dcqcn flow (it sets the rate, from "
      "the line rate), found string \"1Gbps\"",
      "bad.toml:38:13: flows[2].transport: expected frames of at least 66 bytes for timely "
      "(their send time), not 64, found string \"timely\""};
  EXPECT_EQ(problems_of(text), expected);
}

// A problem in the config every node shares is one line, at its place in the scenario (or
// its --set), naming the nodes once — not FILE:0:0 once per node.
TEST(LabScenario, SharedConfigProblemsAreLocatedOnce) {
  const std::string text = R"([lab]
duration = "1ms"
[flow_control]
engine = "bogus"
[[hosts]]
name = "H1"
[[hosts]]
name = "H2"
[[links]]
a = "H1"
b = "H2"
)";
  try {
    parse_lab_scenario(text, "bad.toml", {});
    FAIL() << "accepted";
  } catch (const config::ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 1u) << e.what();
    EXPECT_EQ(e.problems()[0].rfind("bad.toml:4:10: flow_control.engine: expected one of", 0), 0u)
        << e.what();
    EXPECT_NE(e.problems()[0].find("found string \"bogus\" (every node)"), std::string::npos);
  }
  try {
    parse_lab_scenario(text, "bad.toml", {"flow_control.engine=pfc", "buffer.lossy_alpha=100"});
    FAIL() << "accepted";
  } catch (const config::ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 1u) << e.what();
    EXPECT_EQ(e.problems()[0].rfind("--set buffer.lossy_alpha=100:1:20: buffer.lossy_alpha:", 0),
              0u)
        << e.what();
  }
}

// Found by fuzzing fclab's scenario reader (tests/fuzz/lab_scenario_fuzz.cc): an empty
// [topology.failures] read a key that was not there (UBSan: a null reference).
TEST(LabScenario, EmptyFailuresTableIsRefusedAtTheTable) {
  const std::string text = R"([lab]
duration = "1ms"
[topology]
spec = "ring:3"
[topology.failures]
)";
  const std::vector<std::string> expected{
      "bad.toml:5:1: topology.failures.probability: expected a probability in [0, 1], or "
      "links to fail, found nothing"};
  EXPECT_EQ(problems_of(text), expected);
}

// A problem in a node's own entry is placed there, not at the shared section's key of the
// same name nor at FILE:0:0; a generated switch's overriding entry numbers its ports after
// the generated ones; a rule broken by one value is said once, not again for every port.
TEST(LabScenario, NodeConfigProblemsAreAtTheNodesEntry) {
  const std::string text = R"([lab]
duration = "1ms"
[switch]
lossless_priorities = [3]
[flow_control]
engine = "pfc"
pfc = { xoff = "500KB", xon = "400KB" }
[topology]
spec = "ring:3"
[[switches]]
name = "S1"
flow_control = { engine = "bogus" }
ports = [{ name = "x", mtu = 5 }]
[[hosts]]
name = "A"
flow_control = { pfc = { xon = "600KB" } }
[[links]]
a = "A"
b = "S1:x"
)";
  const std::vector<std::string> expected{
      "bad.toml:13:30: ports[3].mtu: expected an integer in [68, 16000], found integer 5 (S1)",
      "bad.toml:12:27: flow_control.engine: expected one of \"cbfc\" \"gfc-buffer\" "
      "\"gfc-time\" \"none\" \"pfc\", found string \"bogus\" (S1)",
      "bad.toml:16:32: flow_control.pfc.xon: expected less than xoff (500000 bytes), found "
      "600000 bytes (A)"};
  EXPECT_EQ(problems_of(text), expected);
}

// fcswitch's table of Pyrrha's onward paths, or its network file, has no place in the lab,
// which predicts them from its routes: refused at the node's entry, not ignored.
TEST(LabScenario, PyrrhaPathTablesAreRefused) {
  const std::string head = R"([lab]
duration = "1ms"
[topology]
spec = "ring:3"
[switch]
lossless_priorities = [3]
[flow_control]
engine = "none"
[pyrrha]
priority = 3
[[switches]]
name = "S1"
)";
  EXPECT_EQ(problems_of(head + "pyrrha = { host_ports = [\"h\"] }\n"),
            std::vector<std::string>{
                "bad.toml:13:25: pyrrha.host_ports: expected no table of paths or network in a "
                "lab scenario (the lab predicts them from its routes), found one (S1)"});
  EXPECT_EQ(problems_of(head + "pyrrha = { network = \"fabric.toml\", node = \"S1\" }\n"),
            std::vector<std::string>{
                "bad.toml:13:22: pyrrha.network: expected no table of paths or network in a "
                "lab scenario (the lab predicts them from its routes), found one (S1)"});
}

// A node's `routes` come first in the [[fib]] the lab merges: a problem in its own [[fib]]
// is still at that entry, and one in `routes` at `routes`.
TEST(LabScenario, FibProblemsAreAtTheRoutesOrTheFibEntry) {
  const std::string text = R"([lab]
duration = "1ms"
[switch]
lossless_priorities = [3]
[[switches]]
name = "S1"
ports = [{ name = "a" }, { name = "b" }]
routes = { A = "nowhere" }
fib = [{ mac = "02:00:00:00:00:99", port = "elsewhere" }]
[[hosts]]
name = "A"
[[hosts]]
name = "B"
[[links]]
a = "A"
b = "S1:a"
[[links]]
a = "B"
b = "S1:b"
)";
  const std::vector<std::string> problems = problems_of(text);
  ASSERT_EQ(problems.size(), 2u) << ::testing::PrintToString(problems);
  EXPECT_EQ(problems[0].rfind("bad.toml:8:10: fib[0].port: ", 0), 0u) << problems[0];
  EXPECT_EQ(problems[1].rfind("bad.toml:9:44: fib[1].port: ", 0), 0u) << problems[1];
}

// A lab switch's FIB has room for twice the hosts and its own entries, at least 1 024 (a
// fat-tree of k = 16 has 320 switches; 16 384 entries, fcswitch's own, took 0.4 MB each).
TEST(LabScenario, FibsAreSizedToTheHosts) {
  const auto fib_entries = [](const LabScenario& s) {
    std::vector<uint32_t> sizes;
    for (const LabNode& node : s.nodes)
      if (!node.host) sizes.push_back(node.config.fib_entries);
    return sizes;
  };
  const std::string tree = "[lab]\nduration = \"1ms\"\n[topology]\nspec = \"fat-tree:16\"\n";
  const std::vector<uint32_t> k16 = fib_entries(parse_lab_scenario(tree, "tree.toml", {}));
  ASSERT_EQ(k16.size(), 320u);
  EXPECT_EQ(std::count(k16.begin(), k16.end(), 2048u), 320);  // 1 024 hosts
  const std::vector<uint32_t> star = fib_entries(parse_lab_scenario(kStar, "star.toml", {}));
  ASSERT_FALSE(star.empty());
  EXPECT_EQ(star.front(), 1024u);
}

}  // namespace
}  // namespace fcswitch::lab

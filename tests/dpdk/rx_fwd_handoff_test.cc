// Run-to-completion between RX and FWD (issue 21): where the layout puts RX(p) on FWD's lcore,
// RX hands its burst to FWD directly (switch/burst_handoff.h) instead of through the fwd ring,
// and FWD takes it in that input's turn, frames and credit frames in the order they came.
// Elsewhere the ring stays.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <prometheus/text_serializer.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "config/switch_config.h"
#include "core/units.h"
#include "fc/cbfc_engine.h"
#include "frame_builder.h"
#include "metrics/switch_metrics.h"
#include "node/switch_node.h"
#include "node/switch_report.h"
#include "ring_ports.h"
#include "ring_testbed.h"
#include "test_constants.h"
#include "wire/control_frame_kind.h"
#include "wire/credit_frame.h"
#include "wire/ether_type.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {
namespace {

using test_constants::kFrameBytes;
using test_constants::kHostMac;
using test_constants::kSinkMac;
constexpr uint8_t kLosslessDscp = 24;  // class selector 3 → priority 3
constexpr uint64_t kBufferBytes = 200'000;

// CBFC on priority 3 at the hosts' ports, none at the sink's; the sink's MAC is static.
std::string switch_toml(const std::string& name, const std::string& layout,
                        const std::string& device0, const std::string& device1,
                        const std::string& device2) {
  return fmt::format(R"(
[switch]
name = "{0}"
lossless_priorities = [3]
mbufs = 1023
[buffer]
lossless_ingress = {1}
[flow_control]
engine = "cbfc"
[layout]
{2}
[[ports]]
name = "h0"
device = "{3}"
[[ports]]
name = "h1"
device = "{4}"
[[ports]]
name = "sink"
device = "{5}"
flow_control = {{ engine = "none" }}
[[fib]]
mac = "02:00:00:00:00:0b"
port = "sink"
)",
                     name, kBufferBytes, layout, device0, device1, device2);
}

constexpr const char* kCompact = "preset = \"compact\"";
constexpr const char* kTestbed = "preset = \"testbed\"";
// RX, FWD and TX on lcores of their own: RX hands over through the rings.
constexpr const char* kSplit = R"(preset = "custom"
lcores = [["rx:h0", "rx:h1", "rx:sink"], ["fwd"], ["tx:h0", "tx:h1", "tx:sink"]])";
// Only h0's RX shares FWD's lcore.
constexpr const char* kMixed = R"(preset = "custom"
lcores = [["rx:h0", "fwd"], ["rx:h1", "rx:sink"], ["tx:h0", "tx:h1", "tx:sink"]])";

std::unique_ptr<SwitchNode> make_switch(const RingPorts& ports, const std::string& name,
                                        const std::string& layout) {
  const auto config = config::parse_switch_config(
      switch_toml(name, layout, ports.device(0), ports.device(1), ports.device(2)), "test.toml");
  return std::make_unique<SwitchNode>(config, kNsPerSecond);
}

std::vector<uint8_t> data_frame(uint32_t sequence) {
  traffic::FrameSpec spec;
  spec.dst = kSinkMac;
  spec.src = kHostMac;
  spec.dscp = kLosslessDscp;
  spec.sequence = sequence;
  spec.size = kFrameBytes;
  return traffic::build_frame(spec);
}

std::vector<uint8_t> credit_frame(uint32_t fctbs, uint32_t fccl) {
  wire::CreditFrame frame{wire::MacAddress{kHostMac}, 1u << 3, {}};
  frame.entry[3] = wire::CreditEntry{fctbs, fccl};
  std::vector<uint8_t> bytes(wire::kCreditFrameBytes);
  wire::encode_credit(frame, bytes.data());
  return bytes;
}

TEST(RxFwdHandoff, TheLayoutSaysWhichRxHandsItsBurstsStraightToFwd) {
  struct Case {
    const char* layout;
    std::array<bool, 3> direct;
  };
  const Case cases[] = {
      {kCompact, {true, true, true}},
      {kTestbed, {false, false, false}},
      {kSplit, {false, false, false}},
      {kMixed, {true, false, false}},
  };
  int i = 0;
  for (const Case& c : cases) {
    RingPorts ports(fmt::format("hwire{}", i));
    const auto node = make_switch(ports, fmt::format("wire{}", i++), c.layout);
    for (int p = 0; p < 3; ++p)
      EXPECT_EQ(node->rx_hands_to_fwd(p), c.direct[p]) << c.layout << " port " << p;
  }
}

// Three data frames, a credit frame (FCTBS 1000) and two more data frames from h0. Handed
// over directly (compact) or through the ring (split), FWD sees them in that order: the five
// frames reach the sink in order, and ABR is the FCTBS plus the blocks of the two frames after
// it (IBA's resynchronisation), which the switch's next credit frame to h0 shows as its FCCL.
class RxFwdHandoffOrder : public ::testing::TestWithParam<bool> {};

TEST_P(RxFwdHandoffOrder, FramesAndCreditFramesReachFwdInTheOrderTheyCame) {
  const bool direct = GetParam();
  RingPorts ports(direct ? "hodirect" : "horing");
  auto node = make_switch(ports, direct ? "odirect" : "oring", direct ? kCompact : kSplit);
  ASSERT_EQ(node->rx_hands_to_fwd(0), direct);
  constexpr uint32_t kFctbs = 1000;
  for (uint32_t s = 0; s < 3; ++s) ports.send(0, data_frame(s));
  ports.send(0, credit_frame(kFctbs, 50'000));
  for (uint32_t s = 3; s < 5; ++s) ports.send(0, data_frame(s));

  task(*node, "rx:h0").run_once(0);
  if (direct) {
    EXPECT_EQ(node->fwd_ring_frames(0), 0u);  // the ring is not used
    EXPECT_EQ(node->fwd().handed_over(), 6u);
  } else {
    EXPECT_EQ(node->fwd_ring_frames(0), 6u);
    EXPECT_EQ(node->fwd().handed_over(), 0u);
  }
  task(*node, "fwd").run_once(0);
  EXPECT_EQ(node->fwd_ring_frames(0), 0u);
  EXPECT_EQ(node->fwd().handed_over(), 0u);
  EXPECT_EQ(node->fwd().processed(), 6u);
  EXPECT_EQ(node->fwd().credit_frames(0), 1u);

  task(*node, "tx:sink").run_once(0);  // the data leaves: h0's occupancy back to 0
  const auto at_sink = ports.drain(2);
  ASSERT_EQ(at_sink.size(), 5u);
  for (uint32_t s = 0; s < 5; ++s) EXPECT_EQ(traffic::sequence_of(at_sink[s]), s);

  task(*node, "tx:h0").run_once(0);  // CBFC's first credit update goes out at once
  const auto at_h0 = ports.drain(0);
  ASSERT_EQ(at_h0.size(), 1u);
  ASSERT_EQ(wire::control_frame_kind(at_h0[0].data(), at_h0[0].size(), wire::kEtherTypeMacControl),
            wire::ControlFrameKind::kCredit);
  const auto update = wire::decode_credit(at_h0[0].data(), at_h0[0].size());
  ASSERT_EQ(update.status, wire::ControlDecodeStatus::kOk);
  const uint32_t abr = kFctbs + 2 * wire::credit_blocks(kFrameBytes);
  EXPECT_EQ(update.frame.entry[3].fccl, abr + kBufferBytes / wire::kCreditBlockBytes);
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

INSTANTIATE_TEST_SUITE_P(DirectAndRing, RxFwdHandoffOrder, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Direct" : "Ring"; });

// Pyrrha's messages (wire/pyrrha_frame.h) between data frames: RX consumes them, a good one
// counted as a control frame and a bad one as its decode error, so FWD never sees one (it
// would drop it as link_local) and the data around them reaches the sink in order.
TEST(RxFwdHandoff, RxConsumesPyrrhaMessagesAndForwardsTheDataAroundThem) {
  RingPorts ports("hpyrrha");
  auto node = make_switch(ports, "pyrrha", kCompact);
  auto pyrrha = [](uint8_t priority) {
    std::vector<uint8_t> bytes(wire::kPyrrhaFrameBytes);
    wire::encode_pyrrha(
        {wire::MacAddress{kHostMac}, wire::PyrrhaOpcode::kMerge, priority, 2, {7, 3}, {5, 1}},
        bytes.data());
    return bytes;
  };
  ports.send(0, data_frame(0));
  ports.send(0, pyrrha(3));
  ports.send(0, data_frame(1));
  ports.send(0, pyrrha(9));  // no such priority: bad_field
  ports.send(0, data_frame(2));

  task(*node, "rx:h0").run_once(0);
  EXPECT_EQ(node->rx(0).control_frames(), 1u);
  EXPECT_EQ(node->rx(0).decode_errors(wire::ControlDecodeStatus::kBadField), 1u);
  EXPECT_EQ(node->drops(0, DropReason::kControlInvalid), 1u);
  // Why it was refused, in /metrics and the JSON report (not only as control_invalid).
  const std::string metrics = prometheus::TextSerializer().Serialize(
      metrics::collect_switch_metrics({{"pyrrha", node.get()}}));
  EXPECT_NE(metrics.find("fcswitch_control_decode_errors_total{node=\"pyrrha\",port=\"h0\","
                         "why=\"bad_field\"} 1"),
            std::string::npos)
      << metrics.substr(0, 2000);
  const auto report = nlohmann::json::parse(report_json(*node, {}));
  EXPECT_EQ(report["ports"][0]["control_decode_errors"]["bad_field"], 1);
  EXPECT_EQ(report["ports"][0]["control_decode_errors"]["too_short"], 0);
  // Per task what it moved; no wall-clock runner polled it, so no busy cycles.
  const auto rx_row = std::find_if(report["tasks"].begin(), report["tasks"].end(),
                                   [](const auto& t) { return t["name"] == "rx:h0"; });
  ASSERT_NE(rx_row, report["tasks"].end());
  EXPECT_EQ((*rx_row)["packets"], 5);
  EXPECT_EQ((*rx_row)["busy_polls"], 1);
  EXPECT_EQ((*rx_row)["busy_cycles"], 0);
  EXPECT_EQ(node->fwd().handed_over(), 3u);
  task(*node, "fwd").run_once(0);
  EXPECT_EQ(node->drops(0, DropReason::kLinkLocal), 0u);
  task(*node, "tx:sink").run_once(0);
  const auto at_sink = ports.drain(2);
  ASSERT_EQ(at_sink.size(), 3u);
  for (uint32_t s = 0; s < 3; ++s) EXPECT_EQ(traffic::sequence_of(at_sink[s]), s);
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// Frames RX handed over that FWD never took (the lcores stopped in between) are freed at
// shutdown as shutdown_flush drops of the port they came in on.
TEST(RxFwdHandoff, WhatFwdDidNotTakeIsFlushedAtShutdown) {
  RingPorts ports("hoflush");
  auto node = make_switch(ports, "oflush", kCompact);
  for (uint32_t s = 0; s < 4; ++s) ports.send(1, data_frame(s));
  task(*node, "rx:h1").run_once(0);
  ASSERT_EQ(node->fwd().handed_over(), 4u);
  EXPECT_FALSE(node->progress().empty);
  EXPECT_EQ(node->flush(), 4u);
  EXPECT_EQ(node->drops(1, DropReason::kShutdownFlush), 4u);
  EXPECT_EQ(node->fwd().handed_over(), 0u);
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// Two hosts overload the sink for 2 ms, lossless and lossy frames alternately (the ring
// testbed's hosts obey the switch's credits): the switch with RX handing over directly
// (compact) and the one with rings between the same tasks polled in the same order (split)
// deliver, drop and grant exactly alike — FWD's turns among its inputs did not change.
TEST(RxFwdHandoff, DirectAndRingPathsForwardAlikeUnderOverload) {
  struct Outcome {
    std::vector<uint64_t> figures;
  };
  auto run = [](const char* layout, const std::string& name) {
    testbed::RingTestbed bed(name, 3, 64);
    bed.start(config::parse_switch_config(
        switch_toml(name, layout, bed.device(0), bed.device(1), bed.device(2)), "test.toml"));
    const fc::LinkParams link{10'000'000'000, 1000, kBufferBytes};
    for (int h = 0; h < 2; ++h) {
      traffic::FrameSpec spec{kSinkMac, kHostMac + static_cast<uint64_t>(h),
                              {},       traffic::FrameSpec::L3::kIpv4,
                              0x88B6,   kLosslessDscp,
                              0,        kFrameBytes};
      bed.end(h).add_stream(testbed::Stream{spec, true});
      spec.dscp = 0;
      bed.end(h).add_stream(testbed::Stream{spec, false});
      auto gate = std::make_unique<fc::CbfcEgressGate>();
      auto generator = std::make_unique<fc::CbfcFeedbackGenerator>(
          fc::CbfcParams{}.resolved(link), fc::EngineContext{link, TickRate{}, 3}, *gate);
      bed.end(h).set_engine(fc::EngineInstance{std::move(generator), std::move(gate)}, 3);
    }
    bed.end(2).drain_at(10'000'000'000);
    uint64_t now = 0;
    for (; now < 2'000'000; now += 100) bed.step(now);
    bed.settle(now, 100);
    Outcome out;
    SwitchNode& node = bed.node();
    for (int h = 0; h < 2; ++h)
      out.figures.insert(
          out.figures.end(),
          {bed.end(h).sent(3), bed.end(h).sent(0), bed.end(h).credit_frames_received(),
           bed.end(h).last_credit_limit(), node.rx_control_frames(h)});
    out.figures.insert(out.figures.end(), {bed.end(2).received(3), bed.end(2).received(0)});
    for (int p = 0; p < 3; ++p)
      for (int r = 0; r < static_cast<int>(DropReason::kCount); ++r)
        out.figures.push_back(node.drops(p, static_cast<DropReason>(r)));
    EXPECT_EQ(node.drops(0, DropReason::kFwdRingFull), 0u);
    bed.stop();
    return out;
  };
  const Outcome direct = run(kCompact, "eqdirect");
  const Outcome ring = run(kSplit, "eqring");
  EXPECT_GT(direct.figures[0], 100u);  // h0 sent lossless frames
  EXPECT_EQ(direct.figures, ring.figures);
}

}  // namespace
}  // namespace fcswitch

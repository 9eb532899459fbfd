// StallWatch, the switch's deadlock evidence (fcswitch's stall lines and report): a switch
// holding packets at a closed gate is stalled from the first sample in which nothing moved
// though every task polled twice, and stays stalled through samples taken while one of its
// lcores had no CPU (the testbed rehearsal runs six processes on two CPUs); data that moves
// ends the stall.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "config/switch_config.h"
#include "core/units.h"
#include "frame_builder.h"
#include "node/stall_watch.h"
#include "node/switch_node.h"
#include "ring_ports.h"
#include "test_constants.h"
#include "wire/credit_frame.h"

namespace fcswitch {
namespace {

constexpr uint64_t kH1Mac = 0x02'00'00'00'00'0Cull;
using test_constants::kSinkMac;
constexpr uint64_t kPeerMac = 0x02'00'00'00'00'0Dull;
constexpr int kH1 = 1;
constexpr int kSink = 2;
constexpr int kLossless = 3;

// CBFC on h0 and h1: h1's queue holds what it gets until h1's peer grants credits.
std::unique_ptr<SwitchNode> make_switch(const RingPorts& ports) {
  const auto config = config::parse_switch_config(
      fmt::format(R"(
[switch]
name = "stall"
lossless_priorities = [3]
mbufs = 1023
[flow_control]
engine = "cbfc"
[layout]
preset = "compact"
[[ports]]
name = "h0"
device = "{}"
[[ports]]
name = "h1"
device = "{}"
[[ports]]
name = "sink"
device = "{}"
flow_control = {{ engine = "none" }}
[[fib]]
mac = "02:00:00:00:00:0c"
port = "h1"
)",
                  ports.device(0), ports.device(1), ports.device(kSink)),
      "stall.toml");
  return std::make_unique<SwitchNode>(config, kNsPerSecond);
}

// Every task once, RX before FWD before TX, at `now_ns` (the node's ticks are ns), but
// `starved`'s: its lcore has no CPU.
void poll(const SwitchNode& node, uint64_t now_ns, const std::string& starved = "") {
  for (const auto& lcore : node.lcore_tasks())
    for (Task* t : lcore)
      if (t->name() != starved) t->run_once(now_ns);
}

// A lossless frame from the sink host to h1: h1's queue holds it until credits come.
traffic::FrameSpec frame_to_h1() {
  traffic::FrameSpec spec;
  spec.dst = kH1Mac;
  spec.src = kSinkMac;
  spec.dscp = 8 * kLossless;
  spec.size = 1000;
  return spec;
}

// h1's peer grants credits: what h1's queue holds may go.
void grant_credits(RingPorts& ports) {
  wire::CreditFrame grant{wire::MacAddress{kPeerMac}, 1u << kLossless, {}};
  grant.entry[kLossless] = wire::CreditEntry{0, 1'000};
  std::vector<uint8_t> bytes(wire::kCreditFrameBytes);
  wire::encode_credit(grant, bytes.data());
  ports.send(kH1, bytes);
}

TEST(StallWatch, AStarvedLcoreNeitherEndsAStallNorStartsOne) {
  RingPorts ports("hstall");
  auto node = make_switch(ports);
  traffic::FrameSpec spec = frame_to_h1();
  for (uint32_t s = 0; s < 4; ++s) {
    spec.sequence = s;
    ports.send(kSink, traffic::build_frame(spec));
  }
  StallWatch watch(*node);
  constexpr uint64_t kMs = 1'000'000;

  poll(*node, 1 * kMs);
  watch.observe(1 * kMs);  // the frames came in: moving
  EXPECT_FALSE(watch.stalled());
  EXPECT_EQ(node->progress().held, 4u);  // at h1's gate: no credits yet

  // Nothing moved, but FWD did not poll: too soon to call it a stall.
  poll(*node, 2 * kMs, "fwd");
  watch.observe(2 * kMs);
  EXPECT_FALSE(watch.stalled());

  poll(*node, 4 * kMs);
  poll(*node, 5 * kMs);
  watch.observe(5 * kMs);
  ASSERT_TRUE(watch.stalled());

  // FWD's lcore has no CPU for 10 ms: the samples say nothing, the stall goes on.
  for (uint64_t t = 12; t <= 20; t += 2) {
    poll(*node, t * kMs, "fwd");
    watch.observe(t * kMs);
    EXPECT_TRUE(watch.stalled()) << t << " ms";
  }
  poll(*node, 100 * kMs);
  poll(*node, 200 * kMs);
  watch.observe(200 * kMs);
  ASSERT_TRUE(watch.stalled());
  EXPECT_EQ(watch.stalled_ns(), 199 * kMs);  // since the sample at 1 ms, the last that moved
  EXPECT_EQ(watch.longest_ns(), 199 * kMs);
  EXPECT_EQ(watch.held(), 4u);
  const auto blocked = watch.blocked_queues();
  ASSERT_EQ(blocked.size(), 1u);
  EXPECT_EQ(blocked[0].port, kH1);
  EXPECT_EQ(blocked[0].priority, kLossless);

  grant_credits(ports);  // the frames go, the stall ends
  poll(*node, 201 * kMs);
  poll(*node, 202 * kMs);
  watch.observe(202 * kMs);
  EXPECT_FALSE(watch.stalled());
  EXPECT_EQ(node->progress().held, 0u);
  EXPECT_EQ(watch.longest_ns(), 199 * kMs);
  int data_frames = 0;
  for (const auto& frame : ports.drain(kH1)) data_frames += frame.size() == spec.size;
  EXPECT_EQ(data_frames, 4);
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// The peers stop together, and one taking its port down may move what waited for it just
// before this switch's stop: a stall of a second or more that ended within kStopGraceNs of the
// stop is the stall at the stop, with its queues; one that ended longer before is not.
TEST(StallWatch, AStallThatEndsAsThePeersStopIsTheStallAtTheStop) {
  RingPorts ports("hstop");
  auto node = make_switch(ports);
  traffic::FrameSpec spec = frame_to_h1();
  ports.send(kSink, traffic::build_frame(spec));
  StallWatch watch(*node);
  constexpr uint64_t kMs = 1'000'000;
  poll(*node, 1 * kMs);
  watch.observe(1 * kMs);
  for (uint64_t t = 100; t <= 1200; t += 100) {
    poll(*node, t * kMs);
    poll(*node, t * kMs + 1);
    watch.observe(t * kMs + 1);
  }
  ASSERT_TRUE(watch.stalled());
  EXPECT_EQ(watch.stalled_at_stop_ns(), 1199 * kMs + 1);

  // The credits come (h1's peer going away would do the same): the frame goes at 1 210 ms.
  grant_credits(ports);
  poll(*node, 1210 * kMs);
  poll(*node, 1210 * kMs + 1);
  watch.observe(1210 * kMs);
  ASSERT_FALSE(watch.stalled());
  EXPECT_EQ(watch.stalled_ns(), 0u);
  EXPECT_EQ(watch.stalled_at_stop_ns(), 1199 * kMs + 1);  // stopped now: the stall it ended in
  const auto blocked = watch.blocked_at_stop();
  ASSERT_EQ(blocked.size(), 1u);
  EXPECT_EQ(blocked[0].port, kH1);
  EXPECT_EQ(blocked[0].priority, kLossless);
  poll(*node, 1460 * kMs);
  poll(*node, 1460 * kMs + 1);
  watch.observe(1460 * kMs);  // 250 ms after: still within the grace
  EXPECT_EQ(watch.stalled_at_stop_ns(), 1199 * kMs + 1);
  poll(*node, 1461 * kMs);
  poll(*node, 1461 * kMs + 1);
  watch.observe(1461 * kMs);  // past it: moving at the stop
  EXPECT_EQ(watch.stalled_at_stop_ns(), 0u);
  EXPECT_TRUE(watch.blocked_at_stop().empty());
  EXPECT_EQ(watch.longest_ns(), 1199 * kMs + 1);
  ports.drain(kH1);
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// A port that takes nothing (its link down: the rehearsal's switches before the hosts start)
// keeps our own credit frame waiting. Nothing moves, but no data is held: not a stall.
TEST(StallWatch, OurFlowControlFramesWaitingForAPortAreNoStall) {
  RingPorts ports("hctl");
  auto node = make_switch(ports);
  ports.fill_out(0);
  StallWatch watch(*node);
  constexpr uint64_t kMs = 1'000'000;
  for (uint64_t t = 1; t <= 200; ++t) {
    poll(*node, t * kMs);
    watch.observe(t * kMs);
  }
  EXPECT_GT(node->progress().held, 0u);  // h0's credit frame, waiting for room
  EXPECT_EQ(node->progress().held, node->progress().held_control);
  EXPECT_FALSE(watch.stalled());
  EXPECT_EQ(watch.longest_ns(), 0u);
  EXPECT_EQ(watch.held(), 0u);
  ports.drain(0);
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

}  // namespace
}  // namespace fcswitch

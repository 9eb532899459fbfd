// FWD charges the packets of a burst that share their charges (one input, priority, egress
// port and queue) as one run, once the run ends (FwdTask::ChargeRun), not packet by packet.
// Every admission still sees the packets admitted before it in the burst: a burst into a
// buffer, or a PABO sub-queue, with room for some of it is cut exactly where per-packet charges
// cut it.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "config/switch_config.h"
#include "core/units.h"
#include "frame_builder.h"
#include "node/switch_node.h"
#include "ring_ports.h"

namespace fcswitch {
namespace {

constexpr uint64_t kHostMac = 0x02'00'00'00'00'01ull;
constexpr uint64_t kSinkMac = 0x02'00'00'00'00'0Bull;
constexpr uint32_t kFrameBytes = 1000;
constexpr int kBurstFrames = 10;
constexpr uint8_t kLosslessDscp = 24;  // class selector 3 → priority 3
constexpr uint8_t kLossyDscp = 0;      // priority 0
constexpr int kLosslessPriority = 3;
constexpr int kLossyPriority = 0;
// Five frames of a lossless input (B_m); a lossy pool of eight frames.
constexpr uint64_t kLosslessIngressBytes = 5 * kFrameBytes;
constexpr uint64_t kLossyPoolBytes = 8 * kFrameBytes;

// `extra`: sections after the ports.
std::unique_ptr<SwitchNode> make_switch(const RingPorts& ports, const std::string& extra = "") {
  const auto config = config::parse_switch_config(
      fmt::format(R"(
[switch]
name = "runs"
lossless_priorities = [3]
mbufs = 1023
[buffer]
lossless_ingress = {}
lossy_pool = {}
lossy_alpha = 1.0
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
[[fib]]
mac = "02:00:00:00:00:0b"
port = "sink"
{}
)",
                  kLosslessIngressBytes, kLossyPoolBytes, ports.device(0), ports.device(1),
                  ports.device(2), extra),
      "test.toml");
  return std::make_unique<SwitchNode>(config, kNsPerSecond);
}

// Ten frames from host port `port` at `dscp`, taken by its RX and forwarded in one burst.
void forward_one_burst(RingPorts& ports, SwitchNode& node, int port, uint8_t dscp) {
  for (int s = 0; s < kBurstFrames; ++s) {
    traffic::FrameSpec spec;
    spec.dst = kSinkMac;
    spec.src = kHostMac + static_cast<uint64_t>(port);
    spec.dscp = dscp;
    spec.sequence = static_cast<uint32_t>(s);
    spec.size = kFrameBytes;
    ports.send(port, traffic::build_frame(spec));
  }
  task(node, port == 0 ? "rx:h0" : "rx:h1").run_once(0);
  task(node, "fwd").run_once(0);
  EXPECT_EQ(node.fwd().processed(), static_cast<uint64_t>(kBurstFrames));
}

// The sink's TX sends what was admitted; at shutdown every mbuf is back.
size_t send_to_sink_and_stop(RingPorts& ports, std::unique_ptr<SwitchNode>& node) {
  task(*node, "tx:sink").run_once(0);
  const size_t sent = ports.drain(2).size();
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
  return sent;
}

// Ten lossless frames in one burst into an input that holds five: five admitted, five
// overflow, and the input's occupancy and its peak are five frames.
TEST(FwdBurstAdmission, ALosslessBurstFillsItsInputExactly) {
  RingPorts ports("hrunsll");
  auto node = make_switch(ports);
  forward_one_burst(ports, *node, 0, kLosslessDscp);
  EXPECT_EQ(node->admitted_packets(0, kLosslessPriority), 5u);
  EXPECT_EQ(node->drops(0, DropReason::kLosslessOverflow), 5u);
  EXPECT_EQ(node->ingress_occupancy_bytes(0, kLosslessPriority), kLosslessIngressBytes);
  EXPECT_EQ(node->max_ingress_occupancy_bytes(0, kLosslessPriority), kLosslessIngressBytes);
  EXPECT_EQ(node->egress_depth_bytes(2, kLosslessPriority), kLosslessIngressBytes);
  EXPECT_EQ(send_to_sink_and_stop(ports, node), 5u);
}

// Ten lossy frames in one burst into one egress queue of a pool of eight frames, α = 1: the
// k-th frame (k frames queued) is admitted while (k + 1) · 1000 ≤ 8000 − k · 1000 (the dynamic
// threshold, on both the queue's depth and the pool's use), so four are. Were the run's bytes
// missing from the queue's depth or from the pool's use, eight would be; from both, all ten.
TEST(FwdBurstAdmission, ALossyBurstStopsAtTheDynamicThreshold) {
  RingPorts ports("hrunsly");
  auto node = make_switch(ports);
  forward_one_burst(ports, *node, 1, kLossyDscp);
  EXPECT_EQ(node->admitted_packets(1, kLossyPriority), 4u);
  EXPECT_EQ(node->drops(1, DropReason::kLossyBufferFull), 6u);
  EXPECT_EQ(node->egress_depth_bytes(2, kLossyPriority), 4u * kFrameBytes);
  EXPECT_EQ(node->queued_from_bytes(2, kLossyPriority, 1, kLossyPriority), 4u * kFrameBytes);
  EXPECT_EQ(send_to_sink_and_stop(ports, node), 4u);
}

// PABO's queue on priority 0 without bouncing, its normal sub-queue four packets long: of ten
// frames in one burst four join it and six find it full (PABO §II: u_q counts what the burst
// put there before). Were the run's packets missing from u_q, all ten would join.
TEST(FwdBurstAdmission, APaboBurstFillsItsNormalSubqueueExactly) {
  RingPorts ports("hrunspb");
  auto node = make_switch(ports, R"([pabo]
priorities = [0]
bounce = false
normal_capacity = 4)");
  forward_one_burst(ports, *node, 1, kLossyDscp);
  EXPECT_EQ(node->admitted_packets(1, kLossyPriority), 4u);
  EXPECT_EQ(node->drops(1, DropReason::kQueueCapacity), 6u);
  EXPECT_EQ(node->pabo_queue_packets(2, kLossyPriority, false), 4u);
  EXPECT_EQ(node->egress_depth_bytes(2, kLossyPriority), 4u * kFrameBytes);
  EXPECT_EQ(send_to_sink_and_stop(ports, node), 4u);
}

}  // namespace
}  // namespace fcswitch

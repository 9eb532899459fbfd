// FWD charges the packets of a burst that share their charges (one input, priority, egress
// port and queue) as one run, once the run ends (FwdTask::ChargeRun), not packet by packet;
// and in a plain switch, the packets after one it staged, bound for the same port and
// priority, follow it on a few checks (FwdTask::PlainRun). Every admission still sees the
// packets admitted before it in the burst: a burst into a buffer, a PABO sub-queue or an
// egress ring with room for some of it is cut exactly where per-packet charges cut it, and a
// burst of mixed classes reaches each queue in order.

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include <fmt/format.h>

#include "config/switch_config.h"
#include "core/units.h"
#include "frame_builder.h"
#include "node/switch_node.h"
#include "ring_ports.h"
#include "test_constants.h"

namespace fcswitch {
namespace {

using test_constants::kFrameBytes;
using test_constants::kHostMac;
using test_constants::kSinkMac;
constexpr int kBurstFrames = 10;
constexpr uint8_t kLosslessDscp = 24;  // class selector 3 → priority 3
constexpr uint8_t kLossyDscp = 0;      // priority 0
constexpr int kLosslessPriority = 3;
constexpr int kLossyPriority = 0;
// Five frames of a lossless input (B_m); a lossy pool of eight frames.
constexpr uint64_t kLosslessIngressBytes = 5 * kFrameBytes;
constexpr uint64_t kLossyPoolBytes = 8 * kFrameBytes;

// `extra`: sections after the ports; `switch_keys`: more keys of [switch].
std::unique_ptr<SwitchNode> make_switch(const RingPorts& ports, const std::string& extra = "",
                                        uint64_t lossless_ingress_bytes = kLosslessIngressBytes,
                                        uint64_t lossy_pool_bytes = kLossyPoolBytes,
                                        const std::string& switch_keys = "") {
  auto config = config::parse_switch_config(
      fmt::format(R"(
[switch]
name = "runs"
lossless_priorities = [3]
mbufs = 1023
{}
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
                  switch_keys, lossless_ingress_bytes, lossy_pool_bytes, ports.device(0),
                  ports.device(1), ports.device(2), extra),
      "test.toml");
  config.count_queued_from = true;  // the tests read queued_from_bytes
  return std::make_unique<SwitchNode>(config, kNsPerSecond);
}

// Frames from host port `port`, the i-th at dscps[i] with sequence number i, to dsts[i] (the
// sink's MAC when none is given), taken by its RX and forwarded in one burst.
void forward_burst_of(RingPorts& ports, SwitchNode& node, int port,
                      const std::vector<uint8_t>& dscps, const std::vector<uint64_t>& dsts = {}) {
  const uint64_t processed = node.fwd().processed();
  for (size_t s = 0; s < dscps.size(); ++s) {
    traffic::FrameSpec spec;
    spec.dst = dsts.empty() ? kSinkMac : dsts[s];
    spec.src = kHostMac + static_cast<uint64_t>(port);
    spec.dscp = dscps[s];
    spec.sequence = static_cast<uint32_t>(s);
    spec.size = kFrameBytes;
    ports.send(port, traffic::build_frame(spec));
  }
  task(node, port == 0 ? "rx:h0" : "rx:h1").run_once(0);
  task(node, "fwd").run_once(0);
  EXPECT_EQ(node.fwd().processed(), processed + dscps.size());
}

// Ten frames from host port `port` at `dscp` in one burst.
void forward_one_burst(RingPorts& ports, SwitchNode& node, int port, uint8_t dscp) {
  forward_burst_of(ports, node, port, std::vector<uint8_t>(kBurstFrames, dscp));
}

// The sink's TX sends what was admitted (a burst a poll); at shutdown every mbuf is back.
size_t send_to_sink_and_stop(RingPorts& ports, std::unique_ptr<SwitchNode>& node) {
  for (int poll = 0; poll < 8 && task(*node, "tx:sink").run_once(0); ++poll) {
  }
  const size_t sent = ports.drain(2).size();
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
  return sent;
}

// The sequence numbers of the frames host port `port` has received, in order.
std::vector<uint32_t> sequences_at(RingPorts& ports, int port) {
  std::vector<uint32_t> out;
  for (const auto& frame : ports.drain(port)) out.push_back(traffic::sequence_of(frame));
  return out;
}

// The sink's frames' sequence numbers, lossless and lossy apart.
std::pair<std::vector<uint32_t>, std::vector<uint32_t>> sink_sequences_by_class(RingPorts& ports) {
  std::vector<uint32_t> lossless, lossy;
  for (const auto& frame : ports.drain(2)) {
    const uint8_t dscp = frame[15] >> 2;  // the IPv4 TOS byte, after a 14-byte Ethernet header
    (dscp == kLosslessDscp ? lossless : lossy).push_back(traffic::sequence_of(frame));
  }
  return {lossless, lossy};
}

// h1's MAC, and the [[fib]] entry that puts it statically on h1.
constexpr uint64_t kH1Mac = 0x02'00'00'00'00'0Cull;
constexpr const char* kH1Fib = R"([[fib]]
mac = "02:00:00:00:00:0c"
port = "h1")";

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

// The same burst again once TX sent the first five: below the input's peak, the packets after
// the first follow it on FWD's view of the input (FwdTask::PlainRun), and the burst is cut at
// five again. Were the view not raised by each packet, all ten would be admitted.
TEST(FwdBurstAdmission, ALosslessBurstBelowItsPeakFillsItsInputExactly) {
  RingPorts ports("hrunslp");
  auto node = make_switch(ports);
  forward_one_burst(ports, *node, 0, kLosslessDscp);
  task(*node, "tx:sink").run_once(0);
  EXPECT_EQ(ports.drain(2).size(), 5u);
  EXPECT_EQ(node->ingress_occupancy_bytes(0, kLosslessPriority), 0u);
  forward_one_burst(ports, *node, 0, kLosslessDscp);
  EXPECT_EQ(node->admitted_packets(0, kLosslessPriority), 10u);
  EXPECT_EQ(node->drops(0, DropReason::kLosslessOverflow), 10u);
  EXPECT_EQ(node->ingress_occupancy_bytes(0, kLosslessPriority), kLosslessIngressBytes);
  EXPECT_EQ(node->max_ingress_occupancy_bytes(0, kLosslessPriority), kLosslessIngressBytes);
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

// A burst whose classes alternate (lossless 0-2, lossy 3-4, lossless 5-6, lossy 7, lossless
// 8-9) into an input that holds five lossless frames. On a fresh switch each lossless frame
// raises its input's peak, which the full path reads again, so frame 4 alone follows a run
// (frame 3's), and frame 5, of the other class, ends it. The lossless frames 0, 1, 2, 5 and 6
// fill the input and 8 and 9 overflow; the lossy ones all fit (3 · 1000 ≤ 8000 − 2 · 1000).
// Each queue holds its frames in their order. Were a run kept across the other class, frames 5
// and 6 would join the lossy queue behind 3 and 4.
TEST(FwdBurstAdmission, AMixedBurstReachesEachQueueInOrder) {
  RingPorts ports("hrunsmx");
  auto node = make_switch(ports);
  const uint8_t ll = kLosslessDscp, ly = kLossyDscp;
  forward_burst_of(ports, *node, 0, {ll, ll, ll, ly, ly, ll, ll, ly, ll, ll});
  EXPECT_EQ(node->admitted_packets(0, kLosslessPriority), 5u);
  EXPECT_EQ(node->drops(0, DropReason::kLosslessOverflow), 2u);
  EXPECT_EQ(node->admitted_packets(0, kLossyPriority), 3u);
  EXPECT_EQ(node->ingress_occupancy_bytes(0, kLosslessPriority), 5 * kFrameBytes);
  EXPECT_EQ(node->egress_depth_bytes(2, kLosslessPriority), 5 * kFrameBytes);
  EXPECT_EQ(node->egress_depth_bytes(2, kLossyPriority), 3 * kFrameBytes);
  EXPECT_EQ(node->queued_from_bytes(2, kLossyPriority, 0, kLossyPriority), 3 * kFrameBytes);
  task(*node, "tx:sink").run_once(0);
  const auto [lossless, lossy] = sink_sequences_by_class(ports);
  EXPECT_EQ(lossless, (std::vector<uint32_t>{0, 1, 2, 5, 6}));
  EXPECT_EQ(lossy, (std::vector<uint32_t>{3, 4, 7}));
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// A mixed burst into an input-queued switch (the testbed's model): the packets of a lossy
// run after its first are pushed into their FIFO together when the run closes
// (FwdTask::take_fates); the heads then move to their rings. (Lossless frames each raise the
// input's peak here, so they do not follow a run.) Were the last run left unpushed (frames 8
// and 9 follow the run frame 7 opens, which the burst's end closes), they would never leave
// and their mbufs would be lost.
TEST(FwdBurstAdmission, AMixedBurstReachesEachQueueInOrderThroughInputFifos) {
  RingPorts ports("hrunsmi");
  auto node =
      make_switch(ports, "", 10 * kFrameBytes, 1000 * kFrameBytes, "queueing = \"input-hol\"");
  const uint8_t ll = kLosslessDscp, ly = kLossyDscp;
  forward_burst_of(ports, *node, 0, {ll, ll, ll, ly, ly, ll, ll, ly, ly, ly});
  EXPECT_EQ(node->admitted_packets(0, kLosslessPriority), 5u);
  EXPECT_EQ(node->admitted_packets(0, kLossyPriority), 5u);
  EXPECT_EQ(node->fwd().held(), 0u);  // the FWD poll moved every head to its ring
  task(*node, "tx:sink").run_once(0);
  const auto [lossless, lossy] = sink_sequences_by_class(ports);
  EXPECT_EQ(lossless, (std::vector<uint32_t>{0, 1, 2, 5, 6}));
  EXPECT_EQ(lossy, (std::vector<uint32_t>{3, 4, 7, 8, 9}));
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// Lossless frames follow a run only below the input's peak (forward() reads a new peak
// again). A first burst of three sets the peak at three frames; once they have left, a burst
// of five into the same input FIFO: frames 1 and 2 follow the run frame 0 opens, frame 3 is a
// new peak and closes it, and forward() pushes frame 3 behind them. Were a run's packets
// pushed after the packet that closed it, the sink would get 0, 3, 1, 2, 4.
TEST(FwdBurstAdmission, AnInputQueuedRunIsPushedBeforeThePacketThatClosesIt) {
  RingPorts ports("hrunscl");
  auto node =
      make_switch(ports, "", kLosslessIngressBytes, kLossyPoolBytes, "queueing = \"input-hol\"");
  forward_burst_of(ports, *node, 0, std::vector<uint8_t>(3, kLosslessDscp));
  task(*node, "tx:sink").run_once(0);
  EXPECT_EQ(ports.drain(2).size(), 3u);
  EXPECT_EQ(node->ingress_occupancy_bytes(0, kLosslessPriority), 0u);
  EXPECT_EQ(node->max_ingress_occupancy_bytes(0, kLosslessPriority), 3 * kFrameBytes);
  forward_burst_of(ports, *node, 0, std::vector<uint8_t>(5, kLosslessDscp));
  EXPECT_EQ(node->fwd().held(), 0u);
  task(*node, "tx:sink").run_once(0);
  EXPECT_EQ(sequences_at(ports, 2), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// One busy input of an input-queued switch, its FIFO holding heads for two egresses: the
// sink's ring (64) already holds 60 lossy frames TX has not sent, h1's is empty. A burst of
// ten to the sink (0-2), h1 (3-4) and the sink (5-9): the heads move as runs while their ring
// has room (FwdTask::drain_only_input): 0-2 and 5 take the sink's four places, 3-4 go to h1,
// and 6-9 wait behind a head that cannot go (head-of-line), held, not dropped. Once TX has
// sent the sink's 64, FWD's next poll moves them. Were a run moved past the room left to it,
// the sink's ring would take none of its stage (a bulk enqueue) and those mbufs would be lost.
TEST(FwdBurstAdmission, AnInputQueuedSwitchMovesRunsToTwoEgressesWithinTheirRoom) {
  RingPorts ports("hrunsre");
  auto node = make_switch(ports, kH1Fib, kLosslessIngressBytes, 1000 * kFrameBytes,
                          "egress_queue_packets = 64\nqueueing = \"input-hol\"");
  for (int b = 0; b < 6; ++b) forward_one_burst(ports, *node, 0, kLossyDscp);
  forward_burst_of(ports, *node, 0, std::vector<uint8_t>(10, kLossyDscp),
                   {kSinkMac, kSinkMac, kSinkMac, kH1Mac, kH1Mac, kSinkMac, kSinkMac, kSinkMac,
                    kSinkMac, kSinkMac});
  EXPECT_EQ(node->fwd().held(), 4u);
  EXPECT_EQ(node->drops(0, DropReason::kEgressRingFull), 0u);
  // A queue's depth counts what its input FIFOs hold for it: 64 in the ring, 4 waiting.
  EXPECT_EQ(node->egress_depth_bytes(2, kLossyPriority), 68 * kFrameBytes);
  EXPECT_EQ(node->egress_depth_bytes(1, kLossyPriority), 2 * kFrameBytes);
  for (int poll = 0; poll < 2; ++poll) task(*node, "tx:sink").run_once(0);
  task(*node, "fwd").run_once(0);
  EXPECT_EQ(node->fwd().held(), 0u);
  task(*node, "tx:sink").run_once(0);
  task(*node, "tx:h1").run_once(0);
  std::vector<uint32_t> sink;
  for (int b = 0; b < 6; ++b)
    for (uint32_t s = 0; s < 10; ++s) sink.push_back(s);
  for (uint32_t s : {0, 1, 2, 5, 6, 7, 8, 9}) sink.push_back(s);
  EXPECT_EQ(sequences_at(ports, 2), sink);
  EXPECT_EQ(sequences_at(ports, 1), (std::vector<uint32_t>{3, 4}));
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// A lossy burst from h0 whose destinations alternate (the sink 0-1, h1 2-3, the sink 4, h1's
// MAC statically on h1): each frame leaves by its own port, in order. Were a run kept across a
// change of destination, frames 2 and 3 would follow frames 0 and 1 to the sink.
TEST(FwdBurstAdmission, ABurstToTwoPortsReachesEachInOrder) {
  RingPorts ports("hrunstp");
  auto node = make_switch(ports, kH1Fib);
  forward_burst_of(ports, *node, 0, std::vector<uint8_t>(5, kLossyDscp),
                   {kSinkMac, kSinkMac, kH1Mac, kH1Mac, kSinkMac});
  task(*node, "tx:sink").run_once(0);
  task(*node, "tx:h1").run_once(0);
  EXPECT_EQ(sequences_at(ports, 2), (std::vector<uint32_t>{0, 1, 4}));
  EXPECT_EQ(sequences_at(ports, 1), (std::vector<uint32_t>{2, 3}));
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

// Seven bursts of ten lossy frames (a pool of a thousand) into an egress ring of 64 that TX
// does not empty: the seventh finds room for four, which join it; six are dropped as the
// ring's (egress_ring_full), none charged. (Lossless frames would each raise the input's peak,
// which FWD reads again for every one of them.)
// Were a run to stage past the room its first packet read, all ten would be staged, and the
// ring would take none of them (a bulk enqueue): ten mbufs lost.
TEST(FwdBurstAdmission, ABurstStopsAtItsEgressRingsRoom) {
  RingPorts ports("hrunsrf");
  auto node = make_switch(ports, "", kLosslessIngressBytes, 1000 * kFrameBytes,
                          "egress_queue_packets = 64");
  for (int b = 0; b < 7; ++b) forward_one_burst(ports, *node, 0, kLossyDscp);
  EXPECT_EQ(node->admitted_packets(0, kLossyPriority), 64u);
  EXPECT_EQ(node->drops(0, DropReason::kEgressRingFull), 6u);
  EXPECT_EQ(node->egress_depth_bytes(2, kLossyPriority), 64 * kFrameBytes);
  EXPECT_EQ(send_to_sink_and_stop(ports, node), 64u);
}

// An input-queued switch (the testbed's model) whose one busy input sends seven bursts of ten
// lossy frames of priority 2 (CS2) into an egress ring of 64 that TX does not empty: the ring
// takes 64 and the input's FIFO holds the last six (head-of-line: held, not dropped). Once TX
// has sent the 64, FWD's next poll moves the six, and all 70 leave in order. Each burst's
// frames after the first follow a run into the FIFO (FwdTask::PlainRun); were they pushed for
// another queue, they would wait in the wrong ring. Were the heads moved past the ring's room,
// the ring would take none of a burst (a bulk enqueue) and its mbufs would be lost; were one
// head moved a poll, FWD would still hold five.
TEST(FwdBurstAdmission, AnInputQueuedSwitchMovesOneInputsHeadsWhileItsRingHasRoom) {
  constexpr uint8_t kCs2Dscp = 16;  // class selector 2 → priority 2, lossy
  constexpr int kCs2Priority = 2;
  RingPorts ports("hrunsiq");
  auto node = make_switch(ports, "", kLosslessIngressBytes, 1000 * kFrameBytes,
                          "egress_queue_packets = 64\nqueueing = \"input-hol\"");
  for (int b = 0; b < 7; ++b) forward_one_burst(ports, *node, 0, kCs2Dscp);
  EXPECT_EQ(node->fwd().held(), 6u);
  EXPECT_EQ(node->drops(0, DropReason::kEgressRingFull), 0u);
  EXPECT_EQ(node->egress_depth_bytes(2, kCs2Priority), 70 * kFrameBytes);
  for (int poll = 0; poll < 2; ++poll) task(*node, "tx:sink").run_once(0);
  std::vector<std::vector<uint8_t>> sent = ports.drain(2);
  EXPECT_EQ(sent.size(), 64u);
  task(*node, "fwd").run_once(0);
  EXPECT_EQ(node->fwd().held(), 0u);
  task(*node, "tx:sink").run_once(0);
  for (auto& frame : ports.drain(2)) sent.push_back(std::move(frame));
  ASSERT_EQ(sent.size(), 70u);
  for (size_t i = 0; i < sent.size(); ++i)
    EXPECT_EQ(traffic::sequence_of(sent[i]), i % kBurstFrames) << "frame " << i;
  node.reset();
  EXPECT_EQ(ports.mbufs_in_use(), 0u);
}

}  // namespace
}  // namespace fcswitch

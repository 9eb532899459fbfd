// The lab on the GFC paper's ring (config/lab/gfc-ring.toml, GFC §6.1): verdicts and numbers
// per engine in virtual time, determinism, the same ring at 100 Mb/s on the wall clock, frame
// conservation in every run, and the CSV limit of a run (the scenario reader's errors are in
// tests/unit/scenario_test.cc).

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../lab_scenario_texts.h"
#include "config/config_error.h"
#include "lab/lab_frame_pool.h"
#include "lab/lab_network.h"
#include "lab/lab_sampler.h"
#include "metrics/queue_trace_columns.h"
#include "results/lab_report.h"
#include "scenario/lab_scenario.h"
#include "scenario/scenario_file.h"
#include "test_constants.h"
#include "topology/flow_hash.h"
#include "topology/path_prediction.h"
#include "topology/shortest_routes.h"
#include "topology/topology_spec.h"
#include "traffic/flow_frame.h"

namespace fcswitch::lab {
namespace {

using scenario_texts::kStar;
using scenario_texts::problems_of;

const std::string kRing = std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/gfc-ring.toml";
const std::string kRingWall = std::string(FCSWITCH_SOURCE_DIR) + "/tests/lab/ring-100mbps.toml";
constexpr uint64_t kBufferBytes = 1'000'000;  // B_m
// Stages on B_top = B_m − (1+c)·F = 990892: a 1518-byte frame and c = 5 committed past TX's gate
// (the lab's TX ring of 4 and the wire). B_2 = 990892 − 240892/2 (the paper's, on B_m: 875000).
constexpr uint64_t kB1 = 750'000, kB2 = 870'446;
// C/2 counted in frame bytes, as the sinks count: 5 Gb/s × 1514 / (1514 + 24).
constexpr double kHalfLineBps = 5e9 * 1514 / 1538;

LabResult run(const std::string& file, std::vector<std::string> sets) {
  LabNetwork network(load_lab_scenario(file, sets));
  return network.run();
}

// Whatever the engine: every frame accounted for, nothing lossless dropped, nothing lost on
// the way, and the pool full again after shutdown.
void expect_conserved(const LabResult& r) {
  EXPECT_TRUE(r.conservation.holds())
      << r.conservation.generated << " generated, " << r.conservation.received << " received, "
      << r.conservation.dropped << " dropped, " << r.conservation.in_flight << " in flight";
  EXPECT_EQ(r.conservation.dropped, 0u);
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_GT(r.conservation.generated, 0u);
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.missing, 0u) << f.from << "→" << f.to;
  EXPECT_EQ(r.pool_in_use_after_shutdown, 0u);
}

const QueueResult& queue(const LabResult& r, const std::string& node, const std::string& port) {
  for (const QueueResult& q : r.queues)
    if (q.node == node && q.port == port && q.priority == 3) return q;
  throw std::runtime_error("no queue " + node + ":" + port);
}

void expect_ring_cycle(const LabResult& r) {
  ASSERT_TRUE(r.deadlock.detected);
  // The three ring egress queues, each waiting on the next switch's ingress from it.
  std::vector<std::string> cycle = r.deadlock.cycle;
  std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
  EXPECT_EQ(cycle, (std::vector<std::string>{"S1:cw:prio3", "S2:cw:prio3", "S3:cw:prio3"}));
  EXPECT_LE(r.deadlock.formed_ns, r.deadlock.detected_ns);
}

// The scenario's switch is the testbed's (input-queued, the inputs served in turn): PFC and
// CBFC deadlock on the ring.
// No route: the switch floods the flow's frames to both other hosts. Only the destination
// counts them; the other host's copy is foreign, and the copies balance the conservation.
TEST(LabSink, AFloodedFrameCountsOnlyAtItsDestination) {
  const LabResult r = run(std::string(FCSWITCH_SOURCE_DIR) + "/tests/lab/flood-no-route.toml", {});
  ASSERT_EQ(r.flows.size(), 1u);
  EXPECT_EQ(r.flows[0].sent_packets, 10u);
  EXPECT_EQ(r.flows[0].received_packets, 10u);  // not 20: H3's copy is not a delivery
  EXPECT_EQ(r.conservation.flood_copies, 10u);
  uint64_t foreign_at_h3 = 0;
  for (const PortResult& p : r.ports)
    if (p.node == "H3") foreign_at_h3 += p.foreign_frames;
  EXPECT_EQ(foreign_at_h3, 10u);
  EXPECT_TRUE(r.conservation.holds());
  // Unless the scenario says so, a flow no switch routes is refused before the run.
  try {
    load_lab_scenario(std::string(FCSWITCH_SOURCE_DIR) + "/tests/lab/flood-no-route.toml",
                      {"lab.flood_unrouted=false"});
    FAIL() << "a flow flooded for want of a route was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(e.problems().front().find("flood-no-route.toml:34:1: flows[0]: expected a route to "
                                        "H2 on every switch its frames reach, found none at S1"),
              std::string::npos)
        << e.what();
  }
}

// A lab frame carries its headers only (lab/lab_frame_pool.h): what a jumbo frame costs on the
// links, in the queues and at the sink is its wire length, and it fits an mbuf of 256 bytes
// (before, the lab copied its 9000 bytes into a 2 KB buffer and crashed).
TEST(LabFrames, AJumboFrameCarriesItsHeadersAndCountsItsLength) {
  const std::string text = R"([lab]
duration = "1ms"
[switch]
lossless_priorities = [3]
mac_learning = false
[[hosts]]
name = "A"
[[hosts]]
name = "B"
[[switches]]
name = "S1"
ports = [{ name = "a", mtu = 9000 }, { name = "b", mtu = 9000 }]
routes = { A = "a", B = "b" }
[[links]]
a = "A"
b = "S1:a"
[[links]]
a = "B"
b = "S1:b"
[[flows]]
from = "A"
to = "B"
priority = 3
frame = "9000B"
size = "90000B"
[[flows]]
from = "B"
to = "A"
priority = 3
frame = "9014B"
size = "90140B"
)";
  LabNetwork network(parse_lab_scenario(text, "jumbo.toml", {}));
  rte_mempool* pool = rte_mempool_lookup("lab_data");
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(rte_pktmbuf_data_room_size(pool), kLabFrameBufferBytes);
  // A frame in flight: the pool's header, the mbuf and its buffer, five cache lines.
  EXPECT_EQ(pool->header_size + pool->elt_size + pool->trailer_size, 320u);
  const LabResult r = network.run();
  ASSERT_EQ(r.flows.size(), 2u);
  EXPECT_EQ(r.flows[0].received_packets, 10u);
  EXPECT_EQ(r.flows[0].received_bytes, 90'000u);
  // 9014 bytes is an IP packet of 9000 plus the Ethernet header: the MTU's largest frame.
  EXPECT_EQ(r.flows[1].received_packets, 10u);
  EXPECT_EQ(r.flows[1].received_bytes, 90'140u);
  expect_conserved(r);  // no drop either: not oversize
}

// A lab switch's egress ring that empties starts again at its first slot (dpdk::rewind_if_empty):
// the star's rings toward A, B and D, which the incast does not fill, hold past their last
// rewind a small part of what they passed, where without it each ring's producer index counts
// every frame it ever took. (Toward C the incast's queue stands, and it never empties.)
TEST(LabFrames, ASwitchsEmptiedRingsStartAgainAtTheirFirstSlot) {
  LabNetwork network(parse_lab_scenario(kStar, "star.toml", {}));
  const LabResult r = network.run();
  expect_conserved(r);
  const auto switches = network.switch_nodes();
  ASSERT_EQ(switches.size(), 1u);
  const SwitchNode& s1 = *switches.front().second;
  EXPECT_TRUE(s1.state().rewind_empty_rings);
  uint64_t sent = 0, since_rewind = 0;
  for (int p = 0; p < s1.ports(); ++p) {
    if (s1.config().ports[p].name == "c") continue;
    for (int q = 0; q < kNumEgressQueues; ++q) {
      sent += s1.tx(p).packets(q);
      for (const auto& ring : s1.state().egress_rings[p][q])
        if (ring) since_rewind += ring->prod.tail;
    }
  }
  EXPECT_GT(sent, 5'000u);
  EXPECT_LT(since_rewind * 10, sent) << since_rewind << " of " << sent;
}

// A lab switch makes an egress queue's ring when it first fills it: in the star, the rings that
// exist are exactly those of the queues that sent frames, one priority's of the ports that
// carry flows, out of 9 a port. Made at the start, all of them would exist.
TEST(LabFrames, ASwitchMakesOnlyTheEgressRingsItFills) {
  LabNetwork network(parse_lab_scenario(kStar, "star.toml", {}));
  const LabResult r = network.run();
  expect_conserved(r);
  const SwitchNode& s1 = *network.switch_nodes().front().second;
  int made = 0, sending = 0;
  for (int p = 0; p < s1.ports(); ++p)
    for (int q = 0; q < kNumEgressQueues; ++q) {
      const bool ring = s1.state().egress_ring(p, q, 0) != nullptr;
      made += ring;
      sending += s1.tx(p).packets(q) > 0;
      EXPECT_EQ(ring, s1.tx(p).packets(q) > 0) << "port " << p << " queue " << q;
    }
  EXPECT_GT(sending, 0);
  EXPECT_LT(made, s1.ports() * kNumEgressQueues / 4);
}

// The pool takes memory as frames are needed, a chunk at a time, not its whole size at the
// start: the star's four flows never have 8 192 frames out of a pool of 262 143.
TEST(LabFrames, APoolGrowsOnlyAsFramesAreNeeded) {
  LabNetwork network(parse_lab_scenario(kStar, "star.toml", {"lab.mbufs=262143"}));
  rte_mempool* pool = rte_mempool_lookup("lab_data");
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->size, 262'143u);
  EXPECT_EQ(pool->populated_size, 8'192u);  // one chunk: a 32nd of the pool
  const LabResult r = network.run();
  EXPECT_EQ(pool->populated_size, 8'192u);
  EXPECT_GT(r.conservation.generated, 10'000u);
  expect_conserved(r);
}

// Once it stops growing (as it is freed: rte_mempool_free drains a pool until nothing comes),
// it hands out the mbufs it has carved and no more.
TEST(LabFrames, APoolThatStopsGrowingKeepsToWhatItCarved) {
  rte_mempool* pool = create_lab_frame_pool("lab_stop", 262'143, 0);
  ASSERT_EQ(pool->populated_size, 8'192u);
  EXPECT_EQ(rte_mempool_avail_count(pool), 262'143u);
  stop_lab_frame_pool_growing(pool);
  EXPECT_EQ(rte_mempool_avail_count(pool), 8'192u);
  std::vector<void*> objects(8'193);
  EXPECT_NE(rte_mempool_get_bulk(pool, objects.data(), 8'193), 0);
  ASSERT_EQ(rte_mempool_get_bulk(pool, objects.data(), 8'192), 0);
  EXPECT_NE(rte_mempool_get_bulk(pool, objects.data(), 1), 0);
  rte_mempool_put_bulk(pool, objects.data(), 8'192);
  EXPECT_EQ(pool->populated_size, 8'192u);
  free_lab_frame_pool(pool);
}

// The process's peak resident memory (VmHWM), in kB; `reset` first makes it the current one
// (/proc/self/clear_refs, "5").
long peak_rss_kb(bool reset) {
  if (reset) std::ofstream("/proc/self/clear_refs") << "5";
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmHWM:")) return std::stol(line.substr(6));
  return -1;
}

// A network's end frees its pool without carving what the run never needed. rte_mempool_free
// drains a pool by taking mbufs until none comes; a pool still growing would first carve all
// 2 097 151 of them: 940 MB more at its peak.
TEST(LabFrames, ANetworkFreesItsPoolWithoutCarvingTheRest) {
  auto network = std::make_unique<LabNetwork>(
      parse_lab_scenario(kStar, "star.toml", {"lab.mbufs=2097151", "lab.duration=\"2ms\""}));
  const LabResult r = network->run();
  EXPECT_GT(r.conservation.generated, 0u);
  const long before_kb = peak_rss_kb(true);
  ASSERT_GT(before_kb, 0);
  network.reset();
  EXPECT_LT(peak_rss_kb(false) - before_kb, 200'000) << "kB more at the peak as the network ended";
}

// The ring's queues hold more frames than 1 023 mbufs: the sources wait for mbufs, and the
// summary says so first, with the first pool twice the size or more that holds every frame the
// network can (lab_frame_capacity.h).
TEST(LabFrames, APoolThatRunsOutIsReported) {
  const LabResult small = run(kRing, {"flow_control.engine=pfc", "lab.mbufs=1023"});
  // Each switch: 3 ports × one priority × 128 frames a queue (under 1 MB of 1 514-byte frames)
  // and 3 TX rings of 4; 6 links × 2 directions × 33 frames in 38.85 µs at 10 Gb/s; 3 hosts ×
  // (64 queued ahead + a TX ring of 4).
  EXPECT_EQ(small.network_frames, 3u * (384 + 12) + 6 * 2 * 33 + 3 * 68);
  uint64_t waits = 0;
  for (const PortResult& p : small.ports) waits += p.source_mbuf_waits;
  EXPECT_GT(waits, 0u);
  const std::string human = human_summary(small);
  EXPECT_NE(human.find(fmt::format("POOL RAN OUT: sources waited {} times for one of the 1023 "
                                   "mbufs ([lab] mbufs), so they sent slower than the scenario "
                                   "says; run again with mbufs = 2047",
                                   waits)),
            std::string::npos)
      << human;
  EXPECT_TRUE(small.conservation.holds());
}

TEST(LabGfcRing, PfcDeadlocksOnTheThreeRingQueues) {
  const LabResult r = run(kRing, {"flow_control.engine=pfc"});
  EXPECT_EQ(human_summary(r).find("POOL RAN OUT"), std::string::npos);  // 32 767 hold the ring
  expect_ring_cycle(r);
  for (const FlowResult& f : r.flows) {
    EXPECT_EQ(f.tail_throughput_bps, 0) << f.from << "→" << f.to;  // and stays there
    EXPECT_GT(f.received_packets, 0u);                             // it moved before
  }
  // Stuck above XOFF (800 KB), below B_m: PFC's headroom held.
  EXPECT_GE(queue(r, "S2", "ccw").final_ingress_bytes, 797'000u);
  EXPECT_LT(queue(r, "S2", "ccw").max_ingress_bytes, kBufferBytes);
  expect_conserved(r);
}

TEST(LabGfcRing, CbfcDeadlocksOnTheThreeRingQueues) {
  const LabResult r = run(kRing, {"flow_control.engine=cbfc"});
  expect_ring_cycle(r);
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.tail_throughput_bps, 0);
  // Credits are exhausted: the ring ingress queues hold (nearly) the whole buffer.
  EXPECT_GT(queue(r, "S1", "ccw").final_ingress_bytes, kBufferBytes - 2 * 1514);
  expect_conserved(r);
}

// On the same switch GFC's premise breaks (docs/experiments/gfc.md): an input drains only as
// fast as the egress of its head serves it, and the ring's inputs, half of whose packets go
// to the next switch, get a third of that egress against the host's two thirds. Their queues
// climb with the hosts', every stage slows the ring further, down to the last stage.
TEST(LabGfcRing, GfcCrawlsAtItsLastStageWhenInputsTakeTurns) {
  const LabResult time = run(kRing, {"flow_control.engine=gfc-time"});
  // Time-based: at B_m its linear map gives rate 0 — a deadlock like PFC's.
  expect_ring_cycle(time);
  EXPECT_EQ(time.lossless_drops, 0u);
  // Buffer-based: every queue of the ring reaches the last stage, B_N = B_top = 990892, and
  // stays below B_m: nothing lost. Its rate, C/2^19 ≈ 19 kb/s, lets a 1538-byte frame out every
  // 0.65 s, far longer than the detector's 5 ms: over the scenario's 60 ms the ring is a cycle
  // of queues that send nothing.
  const LabResult buffer = run(kRing, {"flow_control.engine=gfc-buffer"});
  expect_ring_cycle(buffer);
  expect_conserved(buffer);
  for (const char* s : {"S1", "S2", "S3"}) {
    EXPECT_GE(queue(buffer, s, "ccw").steady_ingress_bytes, 990'892u) << s;
    EXPECT_LT(queue(buffer, s, "ccw").max_ingress_bytes, kBufferBytes) << s;
  }
  // It is a crawl, not a deadlock (GFC §5.1: no stage stops the sender): over 3 s, with a
  // detector that waits longer than the last stage's gap, nothing is blocked and every flow
  // delivers more.
  const LabResult longer = run(kRing, {"flow_control.engine=gfc-buffer", "lab.duration=3s",
                                       "lab.sample_interval=10ms", "deadlock.blocked_for=1500ms"});
  EXPECT_FALSE(longer.deadlock.detected);
  EXPECT_EQ(longer.lossless_drops, 0u);
  for (size_t i = 0; i < longer.flows.size(); ++i)
    EXPECT_GT(longer.flows[i].received_packets, buffer.flows[i].received_packets)
        << longer.flows[i].from << "→" << longer.flows[i].to;
}

// A shared-buffer switch (one FIFO per egress queue): PFC and CBFC deadlock there too, and
// GFC does not, but the FIFO keeps the host's and the ring's packets in one line: the ring's
// ingress queues hold as much as the hosts', and the stages settle every flow at a crawl.
TEST(LabGfcRing, GfcDoesNotDeadlockWithFifoQueues) {
  const std::vector<std::string> fifo{"switch.queueing=output",
                                      "switch.egress_queue_packets=16384"};
  std::vector<std::string> pfc = fifo;
  pfc.push_back("flow_control.engine=pfc");
  expect_ring_cycle(run(kRing, pfc));
  for (const char* engine : {"gfc-buffer", "gfc-time"}) {
    std::vector<std::string> sets = fifo;
    sets.push_back(std::string("flow_control.engine=") + engine);
    const LabResult r = run(kRing, sets);
    EXPECT_FALSE(r.deadlock.detected) << engine;
    for (const FlowResult& f : r.flows) EXPECT_GT(f.tail_throughput_bps, 0) << engine;
    for (const QueueResult& q : r.queues) EXPECT_LT(q.max_ingress_bytes, kBufferBytes) << engine;
    expect_conserved(r);
  }
}

// The testbed's switch with a fair crossbar: every input that requests an egress gets an
// equal share of it. The paper's rates and queue levels — and no deadlock for PFC or CBFC.
using test_constants::kFairCrossbar;

TEST(LabGfcRing, FairCrossbarKeepsTheRingQueuesLowSoPfcAndCbfcDoNotDeadlock) {
  for (const char* engine : {"pfc", "cbfc"}) {
    const LabResult r = run(kRing, {std::string("flow_control.engine=") + engine, kFairCrossbar});
    EXPECT_FALSE(r.deadlock.detected) << engine;
    for (const FlowResult& f : r.flows)
      EXPECT_NEAR(f.tail_throughput_bps, kHalfLineBps, 0.02 * kHalfLineBps) << engine;
    // The ring's input gets half of the next ring link, as much as its transit brings.
    for (const char* s : {"S1", "S2", "S3"})
      EXPECT_LT(queue(r, s, "ccw").max_ingress_bytes, 400'000u) << engine << " " << s;
    expect_conserved(r);
  }
}

TEST(LabGfcRing, BufferBasedGfcGivesHalfTheLinkBetweenB1AndB2) {
  const LabResult r = run(kRing, {"flow_control.engine=gfc-buffer", kFairCrossbar});
  EXPECT_FALSE(r.deadlock.detected);
  // ±2 %: the host alternates stage 1 (C/2) with stage 2 (C/4) and 0 around B_1.
  for (const FlowResult& f : r.flows)
    EXPECT_NEAR(f.tail_throughput_bps, kHalfLineBps, 0.02 * kHalfLineBps);
  for (const char* s : {"S1", "S2", "S3"}) {
    const QueueResult& host = queue(r, s, "h");
    // Stage 1 (GFC Eq. 4: R_1 = C/2) holds the host: the queue settles in [B_1, B_2).
    EXPECT_GE(host.steady_ingress_bytes, kB1) << s;
    EXPECT_LT(host.steady_ingress_bytes, kB2) << s;
    EXPECT_LT(host.max_ingress_bytes, kBufferBytes) << s;
    // It overshoots B_1 on the way (the paper saw 884 KB) and the peak is kept.
    EXPECT_GT(host.max_ingress_bytes, kB1) << s;
    EXPECT_GE(host.max_ingress_bytes, host.final_ingress_bytes) << s;
    // The ring's ingress drains at the rate it fills: stage 0, below B_1.
    EXPECT_LT(queue(r, s, "ccw").max_ingress_bytes, kB1) << s;
  }
  expect_conserved(r);
}

TEST(LabGfcRing, TimeBasedGfcSettlesOnItsLinearMap) {
  const LabResult r = run(kRing, {"flow_control.engine=gfc-time", kFairCrossbar});
  EXPECT_FALSE(r.deadlock.detected);
  for (const FlowResult& f : r.flows)
    EXPECT_NEAR(f.tail_throughput_bps, kHalfLineBps, 0.02 * kHalfLineBps);
  for (const char* s : {"S1", "S2", "S3"}) {
    // The linear map gives R = C/2 at B_m − (1/2)(B_m − B_0) = 746 KB of credit-visible queue;
    // the credits also count what is on its way (sent after the receiver's last FCCL: about
    // R × (2 × 38.85 µs + the sender's committed frames) ≈ 50-55 KB), so the queue itself
    // settles that much lower: 695 ± 25 KB (the paper measured 745 KB).
    EXPECT_NEAR(queue(r, s, "h").steady_ingress_bytes, 695'000, 25'000) << s;
    EXPECT_LT(queue(r, s, "h").max_ingress_bytes, kBufferBytes);
  }
  expect_conserved(r);
}

// τ measured at the host's input after each XOFF: the frames the upstream had committed
// past its gate reach it after the pause. TX commits only what its ring takes, so the ring's
// depth is what τ grows with: 4 frames give the scenario's 90 µs loop (2 × 38.85 µs of links
// + 5 frames each way), 32 frames some 60 µs more.
TEST(LabGfcRing, TauFollowsWhatTxCommitsPastItsGate) {
  auto tau = [](unsigned ring_frames) {
    const LabResult r = run(kRing, {"flow_control.engine=pfc", kFairCrossbar,
                                    "lab.tx_ring_frames=" + std::to_string(ring_frames)});
    return queue(r, "S1", "h");
  };
  const QueueResult shallow = tau(4);
  const QueueResult deep = tau(32);
  EXPECT_GT(shallow.pause_response_samples, 50u);
  EXPECT_GT(deep.pause_response_samples, 50u);
  EXPECT_GE(shallow.pause_response_p50_ns, 77'700u);  // the pause crosses the link, then frames
  EXPECT_LE(shallow.pause_response_max_ns, 90'000u);  // the configured response_time
  EXPECT_GT(deep.pause_response_p50_ns, shallow.pause_response_max_ns + 30'000);
}

TEST(LabGfcRing, VirtualTimeIsDeterministic) {
  const std::vector<std::string> sets{"flow_control.engine=gfc-buffer", kFairCrossbar,
                                      "lab.duration=20ms", "lab.start_jitter=30us"};
  const auto a = summary_json(run(kRing, sets));
  EXPECT_EQ(a.dump(), summary_json(run(kRing, sets)).dump());
  // And the seed matters: another one staggers the flows differently (compared where the
  // seed itself is not written).
  std::vector<std::string> reseeded = sets;
  reseeded.push_back("lab.seed=2");
  EXPECT_NE(summary_json(run(kRing, reseeded))["flows"].dump(), a["flows"].dump());
}

// Sampling looks and does not touch: a run sampled every 100 µs and every 7 µs moves the same
// frames (the clock steps more often for the samples, and no task is polled for them). Only
// the mean of the samples (steady_ingress_bytes) and the count of clock steps may differ.
TEST(LabGfcRing, SampleIntervalDoesNotChangeThePackets) {
  const auto packets_of = [](std::vector<std::string> sets, const char* interval) {
    sets.push_back(std::string("lab.sample_interval=") + interval);
    nlohmann::ordered_json s = summary_json(run(kRing, sets));
    for (const char* key : {"overrides", "clock_steps"}) s.erase(key);
    for (auto& q : s["queues"]) q.erase("steady_ingress_bytes");
    return s;
  };
  for (const std::vector<std::string>& sets :
       {std::vector<std::string>{"flow_control.engine=pfc", "lab.duration=6ms"},
        std::vector<std::string>{"flow_control.engine=gfc-buffer", kFairCrossbar,
                                 "lab.duration=6ms"}}) {
    const nlohmann::ordered_json coarse = packets_of(sets, "100us");
    ASSERT_GT(coarse["packet_hops"].get<uint64_t>(), 10'000u);
    EXPECT_EQ(coarse.dump(), packets_of(sets, "7us").dump()) << sets[0];
  }
}

// The same ring at 100 Mb/s on the TSC: PFC deadlocks, buffer-based GFC does not.
TEST(LabGfcRingWallClock, PfcDeadlocksGfcDoesNot) {
  const LabResult pfc = run(kRingWall, {"flow_control.engine=pfc"});
  expect_ring_cycle(pfc);
  expect_conserved(pfc);
  const LabResult gfc =
      run(kRingWall, {"flow_control.engine=gfc-buffer", "switch.queueing=input-fair"});
  EXPECT_FALSE(gfc.deadlock.detected);
  // Every flow keeps moving: C/2 is 49 Mb/s of frame bytes; with τ ≈ 5 ms against stage
  // widths of a few frames the stages swing and the flows get 30-40 Mb/s.
  for (const FlowResult& f : gfc.flows) EXPECT_GT(f.tail_throughput_bps, 15e6);
  expect_conserved(gfc);
}

TEST(LabHosts, IncastSizedAndOnOffFlows) {
  for (const char* engine : {"pfc", "cbfc"}) {
    LabNetwork network(
        parse_lab_scenario(kStar, "star.toml", {std::string("flow_control.engine=") + engine}));
    const LabResult r = network.run();
    ASSERT_EQ(r.flows.size(), 4u);  // the incast is one flow per source
    // Incast: two line-rate hosts share C's link.
    for (int i : {0, 1})
      EXPECT_NEAR(r.flows[i].tail_throughput_bps, kHalfLineBps, 0.03 * kHalfLineBps) << engine;
    // 1 MB at 1 Gb/s of wire bits: 661 frames of 1538 wire bytes = 8.133 ms, sent from 1 ms,
    // plus 2 µs of links; the last frame is received ~12 µs after it starts.
    ASSERT_TRUE(r.flows[2].fct_s) << engine;
    EXPECT_NEAR(*r.flows[2].fct_s, 8.133e-3, 0.02e-3) << engine;
    EXPECT_EQ(r.flows[2].received_packets, 661u);
    // On 1 ms, off 1 ms, from 0: the last 4 ms hold two on periods at line rate, each followed
    // by the frames queued ahead when it ended (the source's 64, TX's queue head of 32 and
    // burst of 32, the NIC ring's 4: 132 × 1.2304 µs = 162 µs): between half the line and
    // 0.5 × (1 + 0.162) of it.
    EXPECT_GE(r.flows[3].tail_throughput_bps, kHalfLineBps) << engine;
    EXPECT_LE(r.flows[3].tail_throughput_bps, kHalfLineBps * 1.163) << engine;
    EXPECT_FALSE(r.flows[3].fct_s);  // unbounded: no completion time
    if (std::string(engine) == "pfc") {
      // Each incast source is paused at XOFF; its ingress peaks above it, within the buffer.
      const QueueResult& a = queue(r, "S1", "a");
      EXPECT_GE(a.max_ingress_bytes, 150'000u);
      EXPECT_LT(a.max_ingress_bytes, 200'000u);
      EXPECT_GT(a.pause_frames_sent, 0u);
    }
    expect_conserved(r);
  }
}

// [topology] ring:12 with computed routes: 48 ports (DPDK's ethdevs stop at 32), and the
// GFC ring's PFC deadlock on all twelve ring queues.
TEST(LabTopology, TwelveSwitchRingDeadlocksOnItsTwelveQueues) {
  const LabResult r =
      run(std::string(FCSWITCH_SOURCE_DIR) + "/tests/lab/ring-12.toml", {"lab.duration=12ms"});
  ASSERT_TRUE(r.deadlock.detected);
  std::vector<std::string> cycle = r.deadlock.cycle;
  std::rotate(cycle.begin(), std::find(cycle.begin(), cycle.end(), "S1:cw:prio3"), cycle.end());
  std::vector<std::string> ring;
  for (int s = 1; s <= 12; ++s) ring.push_back("S" + std::to_string(s) + ":cw:prio3");
  EXPECT_EQ(cycle, ring);
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_TRUE(r.conservation.holds());
  EXPECT_EQ(r.pool_in_use_after_shutdown, 0u);
}

// A k = 4 fat-tree routed by shortest paths with ECMP: at every switch, each flow leaves by
// the port the one hash (topology/flow_hash.h) picks — predict_path, walking the same routes
// with the same seeds, says which ports carry which flows, and each port's transmitted count
// lies between what its flows delivered and what they sent; ports no flow's path uses send
// nothing. The flows use more than one core (ECMP spreads them).
TEST(LabTopology, FatTreeFlowsTakeThePortsTheHashPredicts) {
  const LabScenario scenario = load_lab_scenario(
      std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-k4.toml", {"lab.duration=1ms"});
  LabNetwork network(scenario);
  const LabResult r = network.run();
  expect_conserved(r);

  const topology::Topology topo = topology::from_spec("fat-tree:4");
  const topology::RouteTable routes = topology::shortest_routes(topo);
  const auto seeds = topology::switch_seeds(topo.switches(), static_cast<uint32_t>(scenario.seed));
  std::map<std::pair<std::string, int>, std::vector<int>> flows_through;  // (switch, port)
  for (const FlowSpec& flow : scenario.flows) {
    const auto tuple = flow_five_tuple(FlowFrameSpec{{},
                                                     {},
                                                     lab_node_ip(flow.src),
                                                     lab_node_ip(flow.dst),
                                                     flow.dscp,
                                                     static_cast<uint32_t>(flow.id)});
    const auto path =
        topology::predict_path(routes, topo, routes.hosts().find(scenario.nodes[flow.src].name),
                               routes.hosts().find(scenario.nodes[flow.dst].name), tuple, seeds);
    ASSERT_FALSE(path.empty()) << flow.id;
    for (const topology::Hop& hop : path)
      flows_through[{topo.at(hop.sw).name, hop.out_port}].push_back(flow.id);
  }
  std::set<std::string> cores_used;
  for (const auto& [name, node] : network.switch_nodes()) {
    for (int port = 0; port < node->ports(); ++port) {
      const uint64_t sent = node->tx_packets(port, 3);
      const auto found = flows_through.find({name, port});
      if (found == flows_through.end()) {
        EXPECT_EQ(sent, 0u) << name << " port " << port << " carries no predicted flow";
        continue;
      }
      uint64_t delivered = 0, generated = 0;
      for (int id : found->second) {
        delivered += r.flows[id].received_packets;
        generated += r.flows[id].sent_packets;
      }
      EXPECT_GE(sent, delivered) << name << " port " << port;
      EXPECT_LE(sent, generated) << name << " port " << port;
      if (name[0] == 'S' && sent) cores_used.insert(name);
    }
  }
  EXPECT_GE(cores_used.size(), 2u);
}

// [topology]: a spec that does not parse, a tier that is not one, a generated host named
// again, and a flow between hosts the network does not join: each named with its place.
// GFC §6.2.3's random link failures: with 20 % of the fat-tree's links cut before the run (a
// connected draw), the cut links' ports are not built and routes go around them: every flow
// still arrives, nothing lost.
TEST(LabTopology, FatTreeRoutesAroundRandomFailures) {
  LabNetwork network(load_lab_scenario(
      std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-k4.toml",
      {"lab.duration=1ms", "topology.failures.probability=0.2", "topology.failures.seed=5"}));
  const LabResult r = network.run();
  expect_conserved(r);
  ASSERT_FALSE(r.failed_links.empty());
  for (const FlowResult& f : r.flows) EXPECT_GT(f.received_packets, 0u) << f.from << "→" << f.to;
  std::map<std::string, const SwitchNode*> nodes;
  for (const auto& [name, node] : network.switch_nodes()) nodes[name] = node;
  for (const std::string& link : r.failed_links) {  // "S1:L7-L7:S1"
    const size_t dash = link.find('-');
    for (const std::string& end : {link.substr(0, dash), link.substr(dash + 1)}) {
      const size_t colon = end.find(':');
      const SwitchNode& node = *nodes.at(end.substr(0, colon));
      // A cut link's ports lead nowhere: the lab does not build them.
      EXPECT_EQ(node.config().port_index(end.substr(colon + 1)), -1) << end;
    }
  }
}

// [[events]]: the only shortest path H1 → H2 (S1 → S2 → S4) is cut at 0.5 ms. With reroute
// the frames on the cut link are lost and counted, the routes move to S1 → S3 → S5 → S4 and
// the flow goes on (the link comes back at 1.5 ms); without reroute, and no restore,
// everything S1 sends that way is lost to the end. Every frame is accounted for either way.
TEST(LabTopology, LinkFailsAndComesBackDuringTheRun) {
  const std::string diamond = R"([lab]
duration = "2ms"
[topology]
routing = "shortest"
[switch]
mac_learning = false
[[hosts]]
name = "H1"
[[hosts]]
name = "H2"
[[switches]]
name = "S1"
ports = [{ name = "h" }, { name = "S2" }, { name = "S3" }]
[[switches]]
name = "S2"
ports = [{ name = "S1" }, { name = "S4" }]
[[switches]]
name = "S3"
ports = [{ name = "S1" }, { name = "S5" }]
[[switches]]
name = "S5"
ports = [{ name = "S3" }, { name = "S4" }]
[[switches]]
name = "S4"
ports = [{ name = "S2" }, { name = "S5" }, { name = "h" }]
[[links]]
a = "H1"
b = "S1:h"
[[links]]
a = "S1:S2"
b = "S2:S1"
delay = "5us"
[[links]]
a = "S2:S4"
b = "S4:S2"
[[links]]
a = "S1:S3"
b = "S3:S1"
[[links]]
a = "S3:S5"
b = "S5:S3"
[[links]]
a = "S5:S4"
b = "S4:S5"
[[links]]
a = "H2"
b = "S4:h"
[[flows]]
from = "H1"
to = "H2"
rate = "5Gbps"
[[events]]
at = "0.5ms"
fail = "S2:S1"
[[events]]
at = "1.5ms"
restore = "S1:S2"
)";
  const auto lost_at_s1 = [](const LabResult& r) {
    for (const PortResult& p : r.ports)
      if (p.node == "S1" && p.port == "S2") return p.link_down_lost;
    return uint64_t{0};
  };
  {
    LabNetwork network(parse_lab_scenario(diamond, "diamond.toml", {}));
    const LabResult r = network.run();
    EXPECT_TRUE(r.conservation.holds());
    EXPECT_GT(lost_at_s1(r), 0u);                    // on the wire when it was cut
    EXPECT_LT(lost_at_s1(r), 20u);                   // and no more: the routes moved at once
    EXPECT_GT(r.flows[0].tail_throughput_bps, 4e9);  // the last 20 %: moving
    std::map<std::string, const SwitchNode*> nodes;
    for (const auto& [name, node] : network.switch_nodes()) nodes[name] = node;
    EXPECT_GT(nodes.at("S5")->tx_packets(1, 0), 0u);  // the detour carried the flow meanwhile
  }
  {
    LabNetwork network(parse_lab_scenario(diamond, "diamond.toml",
                                          {"events=[{ at = \"0.5ms\", fail = \"S1:S2\", "
                                           "reroute = false }]"}));
    const LabResult r = network.run();
    EXPECT_TRUE(r.conservation.holds());
    EXPECT_GT(lost_at_s1(r), 500u);  // 1.5 ms of 5 Gb/s (619 frames) into the cut link
    EXPECT_EQ(r.flows[0].tail_throughput_bps, 0.0);
  }
  try {  // a new route to a port the switch does not have
    parse_lab_scenario(diamond, "diamond.toml",
                       {"events=[{ at = \"1ms\", switch = \"S1\", routes = { H2 = \"S9\" } }]"});
    FAIL() << "a route to a missing port was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(e.problems().front().find("events[0].routes.H2: expected the name of a port in "
                                        "[[ports]], found string \"S9\""),
              std::string::npos)
        << e.what();
  }
  // S1's other way out failing too, with the routes recomputed, would leave S1 no route to
  // H2 and flood the flow's frames: refused at that event. Without reroute, or with S1 - S2
  // back, it is a run.
  const std::string second_cut = R"(events=[{ at = "0.5ms", fail = "S2:S1" }, )";
  const std::string refused =
      ": expected the routes from here on to take every flow to its destination (reroute = "
      "false keeps the routes, and the frames are lost at the cut link; [lab] flood_unrouted = "
      "true floods them), found none to H2 at S1 (flows[0])";
  const std::string cuts = second_cut + R"({ at = "0.7ms", fail = "S1:S3" }])";
  EXPECT_EQ(problems_of(diamond, {cuts}),
            (std::vector<std::string>{"--set " + cuts + ":1:43: events[1]" + refused}));
  // The same cuts written in the other order: the 0.7 ms one is still the one refused.
  const std::string reversed =
      R"(events=[{ at = "0.7ms", fail = "S1:S3" }, { at = "0.5ms", fail = "S2:S1" }])";
  EXPECT_EQ(problems_of(diamond, {reversed}),
            (std::vector<std::string>{"--set " + reversed + ":1:9: events[0]" + refused}));
  // Routes recomputed when a link comes back are checked too: here around the two cuts made
  // without rerouting.
  const std::string restored =
      R"(events=[{ at = "0.5ms", fail = "S2:S1", reroute = false }, )"
      R"({ at = "0.6ms", fail = "S1:S3", reroute = false }, )"
      R"({ at = "0.6ms", fail = "S2:S4", reroute = false }, { at = "0.7ms", restore = "S2:S4" }])";
  EXPECT_EQ(problems_of(diamond, {restored}),
            (std::vector<std::string>{"--set " + restored + ":1:162: events[3]" + refused}));
  EXPECT_EQ(
      problems_of(diamond, {second_cut + R"({ at = "0.7ms", fail = "S1:S3", reroute = false }])"}),
      std::vector<std::string>{"accepted"});
  // Events of one time are applied together: S1 - S2 is back before any frame moves.
  EXPECT_EQ(problems_of(diamond, {second_cut + R"({ at = "0.7ms", fail = "S1:S3" }, )"
                                               R"({ at = "0.7ms", restore = "S1:S2" }])"}),
            std::vector<std::string>{"accepted"});
  // ... each as LabNetwork applies it: the routes are recomputed at the rerouting cut, around
  // S1 - S2 alone, and the frames S1 sends into S1 - S3 are lost there, not flooded ...
  EXPECT_EQ(
      problems_of(diamond, {second_cut + R"({ at = "0.5ms", fail = "S1:S3", reroute = false }])"}),
      std::vector<std::string>{"accepted"});
  // Cuts at time 0: the routes before them took the flow, so the events are blamed.
  const std::string at_zero =
      R"(events=[{ at = "0ms", fail = "S2:S1" }, { at = "0ms", fail = "S1:S3" }])";
  EXPECT_EQ(problems_of(diamond, {at_zero}),
            (std::vector<std::string>{"--set " + at_zero + ":1:41: events[1]" + refused}));
  // A refusal names the time's event that changed the routes, not a later one that did not.
  const std::string blamed = second_cut + R"({ at = "0.7ms", fail = "S1:S3" }, )" +
                             R"({ at = "0.7ms", fail = "S5:S4", reroute = false }])";
  EXPECT_EQ(problems_of(diamond, {blamed}),
            (std::vector<std::string>{"--set " + blamed + ":1:43: events[1]" + refused}));
  // ... and a restore without rerouting leaves the routes made around both cuts.
  const std::string kept = second_cut + R"({ at = "0.7ms", fail = "S1:S3" }, )" +
                           R"({ at = "0.7ms", restore = "S1:S3", reroute = false }])";
  EXPECT_EQ(problems_of(diamond, {kept}),
            (std::vector<std::string>{"--set " + kept + ":1:43: events[1]" + refused}));
  try {
    parse_lab_scenario(diamond, "diamond.toml", {"lab.duration=1ms"});
    FAIL() << "an event after the end was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.problems().front(),
              "diamond.toml:56:6: events[1].at: expected a time before the end of the run "
              "(1000000 ns), found 1500000 ns")
        << e.what();
  }
}

// A stage sent while the link is down is lost (issue 22, fault injection). H1 and H3 send to
// H2 at line rate through S1: buffer-based GFC holds each at stage 1 (C/2). H1's link is cut
// at 0.6 ms; S1's input from H1 drains and its stage-0 message goes into the cut link. The
// link is back at 0.9 ms; H3 stops at 1.2 ms. Unless S1 says its stage again when the link
// comes back (fc::FeedbackGenerator::link_restored), H1 runs at C/2 to the end with S1's
// input empty — nothing left that would change the stage. PFC likewise says again an XON the
// cut link lost (else H1 stays paused for its last pause's 3.4 ms); CBFC and time-based GFC
// send credits every period and recover as before.
TEST(LabLinkEvents, AStageLostOnACutLinkIsSaidAgainWhenItComesBack) {
  const std::string text = R"([lab]
duration = "3ms"
[switch]
lossless_priorities = [3]
mac_learning = false
[buffer]
lossless_ingress = "1MB"
[flow_control]
engine = "gfc-buffer"
response_time = "10us"
[flow_control.gfc-buffer]
b1 = "100KB"
[flow_control.pfc]
xoff = "100KB"
xon = "90KB"
[flow_control.cbfc]
period = "5.24us"
[flow_control.gfc-time]
period = "5.24us"
b0 = "100KB"
[[hosts]]
name = "H1"
[[hosts]]
name = "H2"
[[hosts]]
name = "H3"
[[switches]]
name = "S1"
ports = [{ name = "h1" }, { name = "h2" }, { name = "h3" }]
routes = { H1 = "h1", H2 = "h2", H3 = "h3" }
[[links]]
a = "H1"
b = "S1:h1"
[[links]]
a = "S1:h2"
b = "H2"
[[links]]
a = "H3"
b = "S1:h3"
[[flows]]
from = "H1"
to = "H2"
priority = 3
[[flows]]
from = "H3"
to = "H2"
priority = 3
duration = "1.2ms"
[[events]]
at = "0.6ms"
fail = "S1:h1"
[[events]]
at = "0.9ms"
restore = "S1:h1"
)";
  for (const char* engine : {"gfc-buffer", "pfc", "cbfc", "gfc-time"}) {
    SCOPED_TRACE(engine);
    LabNetwork network(
        parse_lab_scenario(text, "stale.toml", {std::string("flow_control.engine=") + engine}));
    const LabResult r = network.run();
    EXPECT_TRUE(r.conservation.holds())
        << r.conservation.generated << " generated, " << r.conservation.received << " received, "
        << r.conservation.dropped << " dropped, " << r.conservation.in_flight << " in flight";
    EXPECT_EQ(r.lossless_drops, 0u);
    EXPECT_GT(r.flows[0].tail_throughput_bps, 9e9);  // H1 alone (2.4–3 ms): line rate
  }
}

// One sized flow alone on the fat-tree: its FCT is the ideal of its path (slowdown 1, to the
// virtual clock's 1 ns ticks), and the report puts it in its size bucket.
TEST(LabWorkload, LoneFlowHasSlowdownOne) {
  const LabResult r = run(std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-k4.toml",
                          {"lab.duration=1ms",
                           "flows=[{ from = \"T1h1\", to = \"T5h1\", size = \"100KB\", "
                           "priority = 3 }]"});
  expect_conserved(r);
  ASSERT_TRUE(r.fct.has_value());
  ASSERT_EQ(r.fct->flows.size(), 1u);
  const FlowFct& f = r.fct->flows[0];
  ASSERT_TRUE(f.slowdown.has_value());
  EXPECT_NEAR(*f.slowdown, 1.0, 1e-3) << "fct " << *f.fct_s << " s, ideal " << f.ideal_fct_s;
  EXPECT_EQ(r.fct->buckets[2].completed.count, 1u);  // 100 KB: the [100 KB, 1 MB) bucket
}

// The virtual clock polls a switch's TX task only when its port has something for it
// (lab/lab_schedule.h): a port that neither sends nor receives is polled at the first step
// and the last (which wake everything) and never in between, however busy its switch; so is
// a port that only receives, since its PFC generator acts on nothing below XOFF
// (switch/feedback_wake_bands.h); a port the flow leaves by is polled once a frame, when
// FWD queues it, and not again when its link takes it (TxTask::waits_for_room). The flow's
// result is that of every poll. Every RX hands its bursts straight to FWD, as on
// fcswitch's compact layout (no fwd ring).
TEST(LabTopology, IdlePortsOfABusySwitchCostNoTxPolls) {
  LabNetwork network(load_lab_scenario(
      std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-k4.toml",
      {"lab.duration=1ms",
       "flows=[{ from = \"T1h1\", to = \"T5h1\", size = \"100KB\", priority = 3 }]"}));
  const LabResult r = network.run();
  expect_conserved(r);
  ASSERT_EQ(r.flows.size(), 1u);
  EXPECT_EQ(r.flows[0].received_packets, r.flows[0].sent_packets);
  int idle_ports = 0, receiving_ports = 0, sending_ports = 0;
  for (const auto& [name, node] : network.switch_nodes()) {
    for (int port = 0; port < node->ports(); ++port) {
      EXPECT_TRUE(node->rx_hands_to_fwd(port)) << name << " port " << port;
      const uint64_t polls = node->tx(port).polls();
      if (node->tx_packets(port, 3) > 0) {
        ++sending_ports;
        // A poll a frame (FWD put it in the queue): every link on the path runs at the
        // same rate, the frame goes at once, and the link taking it wakes nobody.
        EXPECT_EQ(polls, node->tx_packets(port, 3) + 2) << name << " port " << port;
      } else {
        ++(node->rx_packets(port) > 0 ? receiving_ports : idle_ports);
        EXPECT_EQ(polls, 2u) << name << " port " << port;
      }
    }
  }
  // The flow crosses 5 switches between pods (edge, aggregation, core, aggregation, edge).
  EXPECT_GE(sending_ports, 5);
  EXPECT_GE(receiving_ports, 5);
  EXPECT_GT(idle_ports, 50);
}

// A flow's rows in a run's flows.csv (or transports.csv): their count and the times of the
// first and the last.
struct FlowRows {
  size_t count = 0;
  double first_s = 0, last_s = 0;
};
std::map<int, FlowRows> read_flow_rows(const std::string& csv_path) {
  std::ifstream csv(csv_path);
  std::string line;
  std::getline(csv, line);  // the header
  std::map<int, FlowRows> rows;
  while (std::getline(csv, line)) {
    const size_t comma = line.find(',');
    const double time_s = std::stod(line.substr(0, comma));
    FlowRows& r = rows[std::stoi(line.substr(comma + 1))];
    if (r.count++ == 0) r.first_s = time_s;
    r.last_s = std::max(r.last_s, time_s);
  }
  return rows;
}

// GFC §6.2.3 in small: the enterprise workload (Fig. 15) at load 0.3 on a fat-tree with 5 %
// of its links failed. Flows come from the CDF by Poisson arrivals, every one between racks;
// the run accounts for every frame and reports FCT and slowdown for the sized flows. flows.csv
// has a flow's rows from the interval it starts in to the one it ends in: not every flow at
// every sample (21 samples of 5 ms here), which made a long run's CSV grow as flows × samples.
TEST(LabWorkload, EnterpriseWorkloadOnAFailedFatTree) {
  const LabScenario scenario = load_lab_scenario(
      std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-enterprise.toml", {});
  ASSERT_GT(scenario.flows.size(), 100u);
  for (const FlowSpec& f : scenario.flows) {
    const std::string& a = scenario.nodes[f.src].name;
    const std::string& b = scenario.nodes[f.dst].name;
    EXPECT_NE(a.substr(0, a.find('h')), b.substr(0, b.find('h'))) << a << "→" << b;  // racks
    EXPECT_GT(f.size_bytes, 0u);
  }
  const std::string out = ::testing::TempDir() + "/enterprise_workload";
  std::filesystem::create_directories(out);
  LabNetwork network(scenario);
  const LabResult r = network.run(out);
  EXPECT_TRUE(r.conservation.holds());
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_FALSE(r.failed_links.empty());
  ASSERT_TRUE(r.fct.has_value());
  EXPECT_EQ(r.fct->flows.size(), scenario.flows.size());
  EXPECT_GT(r.fct->all.completed.count, r.fct->flows.size() * 8 / 10);
  for (const FlowFct& f : r.fct->flows)
    if (f.slowdown) {
      EXPECT_GE(*f.slowdown, 1.0 - 1e-3) << f.from << "→" << f.to;
    }
  const double interval_s = 250e-6, end_s = 5e-3, eps = 1e-9;
  ASSERT_EQ(scenario.sample_interval_ns, 250'000u);
  ASSERT_EQ(scenario.duration_ns, 5'000'000u);
  const std::map<int, FlowRows> rows = read_flow_rows(out + "/flows.csv");
  size_t total = 0, started = 0;
  for (const FlowFct& f : r.fct->flows) {
    const auto it = rows.find(f.id);
    if (f.start_s > end_s - eps) {
      EXPECT_EQ(it, rows.end()) << "flow " << f.id << " starts after the last sample";
      continue;
    }
    ++started;
    ASSERT_NE(it, rows.end()) << "flow " << f.id;
    const FlowRows& row = it->second;
    total += row.count;
    EXPECT_GE(row.first_s, f.start_s - eps) << "flow " << f.id;
    EXPECT_LT(row.first_s, f.start_s + interval_s + eps) << "flow " << f.id;
    const double last_s = f.fct_s ? std::min(end_s, f.start_s + *f.fct_s) : end_s;
    EXPECT_GE(row.last_s, last_s - eps) << "flow " << f.id;
    EXPECT_LT(row.last_s, last_s + interval_s + eps) << "flow " << f.id;
    EXPECT_NEAR(static_cast<double>(row.count), (row.last_s - row.first_s) / interval_s + 1, 1e-6)
        << "flow " << f.id;  // one a sample between
  }
  EXPECT_EQ(rows.size(), started);            // no rows of anything else
  EXPECT_LT(total, 3 * r.fct->flows.size());  // most flows end within a sample or two
  // The terminal has the flows in brief and their FCT by size, not a line a flow; the sweep's
  // table their count and mean rate.
  const std::string human = human_summary(r);
  EXPECT_NE(
      human.find(fmt::format("flows: {} ({} sized, {} of them received whole)", r.flows.size(),
                             r.fct->flows.size(), r.fct->all.completed.count)),
      std::string::npos)
      << human;
  EXPECT_NE(human.find("completed flows by size"), std::string::npos) << human;
  EXPECT_NE(human.find("  all "), std::string::npos) << human;
  EXPECT_LT(std::count(human.begin(), human.end(), '\n'), 60) << human;
  const std::string table = verdict_table({{"enterprise", r}});
  EXPECT_NE(table.find(fmt::format("{} flows, mean ", r.flows.size())), std::string::npos) << table;
}

// GFC §6.2.3's closed loop on the failed fat-tree: each host has one flow at a time, and starts
// the next, to another rack, the moment its destination has the last byte of the one before.
// flows.csv has rows of a flow while it is under way and for the interval it ends in, not
// every flow the loop has made at every sample.
TEST(LabWorkload, ClosedLoopStartsAHostsNextFlowWhenItsLastEnds) {
  const std::vector<std::string> sets = {
      "lab.duration=2ms", "lab.sample_interval=50us",
      "workloads=[{ kind = \"closed-loop\", cdf = \"enterprise\", "
      "priority = 3, stop = \"1500us\" }]"};
  const std::string file =
      std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-enterprise.toml";
  const LabScenario scenario = load_lab_scenario(file, sets);
  ASSERT_EQ(scenario.flows.size(), 16u);  // the first flow of each host; the run makes the rest
  ASSERT_EQ(scenario.closed_loops.size(), 1u);
  const std::string out = ::testing::TempDir() + "/closed_loop";
  std::filesystem::create_directories(out);
  LabNetwork network(scenario);
  const LabResult r = network.run(out);
  expect_conserved(r);
  ASSERT_TRUE(r.fct.has_value());
  std::map<std::string, std::vector<const FlowFct*>> of_host;  // in the order they started
  for (const FlowFct& f : r.fct->flows) of_host[f.from].push_back(&f);
  ASSERT_EQ(of_host.size(), 16u);
  const auto rack = [](const std::string& host) { return host.substr(0, host.find('h')); };
  size_t flows = 0;
  for (const auto& [host, list] : of_host) {
    EXPECT_GE(list.size(), 3u) << host;
    flows += list.size();
    EXPECT_EQ(list.front()->start_s, 0.0) << host;
    for (size_t i = 0; i < list.size(); ++i) {
      EXPECT_NE(rack(list[i]->to), rack(host)) << host;
      if (i + 1 == list.size()) break;
      // Only a host's last flow may be unfinished; the next starts at its end.
      ASSERT_TRUE(list[i]->fct_s.has_value()) << host << " flow " << i;
      EXPECT_NEAR(list[i + 1]->start_s, list[i]->start_s + *list[i]->fct_s, 1e-9) << host;
    }
    // Nothing starts from the stop on.
    EXPECT_LT(list.back()->start_s, 1.5e-3) << host;
    if (list.back()->fct_s) {
      EXPECT_GE(list.back()->start_s + *list.back()->fct_s, 1.5e-3 - 1e-9) << host;
    }
  }
  EXPECT_EQ(flows, r.flows.size());
  // And its host sends it then: a one-frame flow's FCT is its frame's time from the NIC queue.
  size_t one_frame = 0;
  for (const FlowResult& f : r.flows)
    if (f.received_packets == 1 && f.fct_s) {
      ++one_frame;
      ASSERT_TRUE(f.delay_max_s.has_value());
      EXPECT_NEAR(*f.fct_s, *f.delay_max_s, 1e-9) << "flow " << f.id << " " << f.from;
    }
  EXPECT_GT(one_frame, 16u);
  std::map<int, double> end_s;  // of the flows received whole
  for (const FlowFct& f : r.fct->flows)
    if (f.fct_s) end_s[f.id] = f.start_s + *f.fct_s;
  const std::map<int, FlowRows> rows = read_flow_rows(out + "/flows.csv");
  size_t total = 0;
  for (const auto& [id, row] : rows) total += row.count;
  for (const auto& [id, end] : end_s) {
    // The interval it ended in has its row, and no later one has.
    ASSERT_TRUE(rows.count(id)) << "flow " << id;
    EXPECT_GE(rows.at(id).last_s, end - 1e-9) << "flow " << id;
    EXPECT_LT(rows.at(id).last_s, end + 50e-6 + 1e-9) << "flow " << id;
  }
  EXPECT_LT(total, 41 * 16 + flows);  // a sample every 50 µs from 0 to 2 ms
}

// A closed loop over TIMELY (no window: a flow is done at its source once its last frame is
// queued, and leaves the source's list): the ACKs of its last frames still reach it, counted,
// so every flow that ended well before the run did has all its ACKs back.
TEST(LabWorkload, ClosedLoopFlowsOverATransportCountEveryAck) {
  const LabResult r = run(std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/fat-tree-enterprise.toml",
                          {"lab.duration=2ms",
                           "workloads=[{ kind = \"closed-loop\", cdf = \"enterprise\", "
                           "priority = 3, transport = \"timely\" }]"});
  expect_conserved(r);
  size_t checked = 0;
  for (const FlowResult& f : r.flows) {
    ASSERT_TRUE(f.transport.has_value());
    if (!f.fct_s) continue;
    const FlowFct& fct = r.fct->flows[static_cast<size_t>(f.id)];
    if (fct.start_s + *f.fct_s > 1.5e-3) continue;  // its last ACKs may be on the way
    ++checked;
    EXPECT_EQ(f.transport->acks_received, f.transport->acks_sent) << "flow " << f.id;
  }
  EXPECT_GT(checked, 50u);
}

// H1 sends to H3, and H3's routes go round S1 → S2 → S3 → S1 (Tagger §8.1's loop).
const char* const kTtlLoop = R"([lab]
duration = "2ms"
[switch]
mac_learning = false
[[hosts]]
name = "H1"
[[hosts]]
name = "H3"
[[switches]]
name = "S1"
ports = [{ name = "h1" }, { name = "h3" }, { name = "S2" }, { name = "S3" }]
routes = { H3 = "S2" }
[[switches]]
name = "S2"
ports = [{ name = "S1" }, { name = "S3" }]
routes = { H3 = "S3" }
[[switches]]
name = "S3"
ports = [{ name = "S2" }, { name = "S1" }]
routes = { H3 = "S1" }
[[links]]
a = "H1"
b = "S1:h1"
[[links]]
a = "H3"
b = "S1:h3"
[[links]]
a = "S1:S2"
b = "S2:S1"
[[links]]
a = "S2:S3"
b = "S3:S2"
[[links]]
a = "S3:S1"
b = "S1:S3"
[[flows]]
from = "H1"
to = "H3"
rate = "100Mbps"
)";
;

uint64_t ttl_drops(const LabResult& r) {
  uint64_t n = 0;
  for (const PortResult& p : r.ports)
    for (const auto& [reason, count] : p.drops) n += reason == "ttl_expired" ? count : 0;
  return n;
}

// A routing loop (H3's packets go S1 → S2 → S3 → S1 …) with [switch] decrement_ttl: each
// looping packet dies of its TTL (64 hops), counted as ttl_expired, and nothing else is lost;
// without it, none does.
TEST(LabTopology, RoutingLoopEndsByTtl) {
  const std::string loop = kTtlLoop;
  {
    LabNetwork with_ttl(parse_lab_scenario(loop, "loop.toml", {"switch.decrement_ttl=true"}));
    const LabResult r = with_ttl.run();
    EXPECT_TRUE(r.conservation.holds());
    EXPECT_EQ(r.flows[0].received_packets, 0u);
    EXPECT_GT(r.flows[0].sent_packets, 10u);
    EXPECT_GT(ttl_drops(r), 0u);
    EXPECT_EQ(ttl_drops(r), r.conservation.dropped);  // every drop a TTL expiry
  }
  LabNetwork without(parse_lab_scenario(loop, "loop.toml", {}));
  const LabResult r = without.run();
  EXPECT_EQ(ttl_drops(r), 0u);
  EXPECT_EQ(r.conservation.dropped, 0u);  // still circling when the run ends
}

// The loop made during the run ([[events]] switch: a static route installed at 1 ms, as in
// Tagger §8.1's testbed): S1 sends H3's frames straight to it until then, into the loop after,
// where each dies of its TTL. So H3 receives the first millisecond's frames only.
TEST(LabTopology, ARouteInstalledDuringTheRunMakesTheLoop) {
  std::string direct = kTtlLoop;
  const std::string looping_route = R"(routes = { H3 = "S2" })";
  direct.replace(direct.find(looping_route), looping_route.size(), R"(routes = { H3 = "h3" })");
  const std::string loop_at_1ms =
      R"(events=[{ at = "1ms", switch = "S1", routes = { H3 = "S2" } }])";
  {
    LabNetwork network(
        parse_lab_scenario(direct, "loop.toml", {"switch.decrement_ttl=true", loop_at_1ms}));
    const LabResult r = network.run();
    EXPECT_TRUE(r.conservation.holds());
    const FlowResult& flow = r.flows[0];
    // 100 Mb/s of 1 500-byte frames: 8.3 a millisecond, 17 in the run's two.
    EXPECT_GE(flow.received_packets, 8u);
    EXPECT_LE(flow.received_packets, 10u);
    EXPECT_EQ(flow.tail_throughput_bps, 0.0);  // the last 20 %: all into the loop
    EXPECT_GE(ttl_drops(r), 6u);
    EXPECT_EQ(ttl_drops(r), r.conservation.dropped);
  }
  // Without the event nothing loops.
  LabNetwork plain(parse_lab_scenario(direct, "loop.toml", {"switch.decrement_ttl=true"}));
  const LabResult straight = plain.run();
  EXPECT_EQ(ttl_drops(straight), 0u);
  EXPECT_GE(straight.flows[0].received_packets, 16u);
}

// A run whose samples would fill the disk (the ring for an hour at 100 µs: about 20 GB of
// CSV) is refused before it writes anything, at lab.sample_interval; a short run with the
// same interval writes its CSV.
TEST(LabScenario, ARunWhoseCsvWouldExceedTheLimitIsRefusedAtStart) {
  const std::string out = ::testing::TempDir() + "/csv_limit";
  std::filesystem::create_directories(out);
  std::filesystem::remove(out + "/queues.csv");
  try {
    LabNetwork(load_lab_scenario(kRing, {"lab.duration=\"3600s\""})).run(out);
    FAIL() << "ran";
  } catch (const config::ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].rfind(kRing + ":29:19: lab.sample_interval: expected samples whose "
                                            "CSV stays within lab.csv_limit (1000000000 bytes), "
                                            "found 100000 ns over 3600000000000 ns: 36000001 "
                                            "samples of 12 series",
                                    0),
              0u)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(out + "/queues.csv"));
  // An interval a --set gave is named by the --set, as other values from there are.
  try {
    check_csv_size(
        load_lab_scenario(kRing, {"lab.duration=\"3600s\"", "lab.sample_interval=\"1us\""}));
    FAIL() << "accepted";
  } catch (const config::ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 1u);
    EXPECT_EQ(e.problems()[0].rfind("--set lab.sample_interval=\"1us\":1:21: lab.sample_interval: "
                                    "expected samples whose CSV stays within lab.csv_limit",
                                    0),
              0u)
        << e.what();
  }
  EXPECT_NO_THROW(LabNetwork(load_lab_scenario(
                                 kRing, {"lab.duration=\"1ms\"", "lab.sample_interval=\"100us\""}))
                      .run(out));
  EXPECT_TRUE(std::filesystem::exists(out + "/queues.csv"));
}

// The last line of a CSV file, and how many lines it has.
std::pair<std::string, size_t> last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  size_t lines = 0;
  for (; std::getline(in, line); ++lines) last = line;
  return {last, lines};
}

// A run whose rows only may pass lab.csv_limit (flows with no size have rows to the end, as
// the upper estimate counts them; the lower counts one) is not refused: it runs, and its CSV
// files stop together at the sample that would pass the limit, while the summary's figures
// are those of the run with every file written.
// The estimate a run is refused or warned by (csv_bytes) holds what the run writes: the rows
// of every CSV the sampler keeps (queues, flows, transports, Pyrrha's switches) lie between
// its least and its most. Pyrrha's incastmix has each kind.
TEST(LabScenario, CsvEstimateBoundsTheRowsARunWrites) {
  const std::string out = ::testing::TempDir() + "/csv_estimate";
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  const LabScenario scenario =
      load_lab_scenario(std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/pyrrha-incastmix.toml",
                        {"lab.duration=\"1ms\"", "lab.mbufs=16383"});
  const CsvEstimate estimate = csv_bytes(scenario, sampled_series(scenario));
  LabNetwork(scenario).run(out);
  uint64_t rows_bytes = 0;
  for (const char* file : {"queues.csv", "flows.csv", "transports.csv", "pyrrha.csv"}) {
    const std::string path = out + "/" + file;
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    std::ifstream in(path);
    std::string header;
    std::getline(in, header);
    ASSERT_GT(last_line(path).second, 1u) << path << " has no rows";
    rows_bytes += std::filesystem::file_size(path) - header.size() - 1;
  }
  EXPECT_LE(estimate.least_bytes, static_cast<double>(rows_bytes));
  EXPECT_GE(estimate.most_bytes, static_cast<double>(rows_bytes));
}

TEST(LabScenario, CsvFilesStopAtTheLimitAndTheRunGoesOn) {
  const std::string whole = ::testing::TempDir() + "/csv_whole";
  const std::string cut = ::testing::TempDir() + "/csv_cut";
  for (const std::string& d : {whole, cut}) {
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
  }
  const std::vector<std::string> sets = {"flow_control.engine=pfc", "lab.duration=\"2ms\"",
                                         "lab.sample_interval=\"100us\""};
  const LabResult all = LabNetwork(load_lab_scenario(kRing, sets)).run(whole);
  EXPECT_FALSE(all.csv_stopped_at_s);
  const uint64_t queues_bytes = std::filesystem::file_size(whole + "/queues.csv");
  const uint64_t flows_bytes = std::filesystem::file_size(whole + "/flows.csv");
  // 21 samples (0 to 2 ms), each with a row per queue and per flow (unsized: to the end).
  const size_t queue_rows = last_line(whole + "/queues.csv").second - 1;
  const size_t flow_rows = last_line(whole + "/flows.csv").second - 1;
  ASSERT_EQ(queue_rows % 21, 0u);
  ASSERT_EQ(flow_rows, 21u * all.flows.size());
  // The headers are not rows: a limit one byte short of the rows stops the last sample.
  const uint64_t rows_bytes = queues_bytes + flows_bytes -
                              std::string("time_s,flow,from,to,rx_bps\n").size() -
                              metrics::kQueueTraceHeader.size();
  std::vector<std::string> limited = sets;
  limited.push_back(fmt::format("lab.csv_limit={}", rows_bytes - 1));
  const LabResult r = LabNetwork(load_lab_scenario(kRing, limited)).run(cut);
  ASSERT_TRUE(r.csv_stopped_at_s);
  EXPECT_DOUBLE_EQ(*r.csv_stopped_at_s, 0.002);
  // Both files end at the sample before, 1.9 ms.
  const auto [queues_last, queues_lines] = last_line(cut + "/queues.csv");
  const auto [flows_last, flows_lines] = last_line(cut + "/flows.csv");
  EXPECT_EQ(queues_lines, 1 + queue_rows / 21 * 20);
  EXPECT_EQ(flows_lines, 1 + 20 * all.flows.size());
  EXPECT_EQ(queues_last.rfind("0.001900,", 0), 0u) << queues_last;
  EXPECT_EQ(flows_last.rfind("0.001900,", 0), 0u) << flows_last;
  EXPECT_LE(std::filesystem::file_size(cut + "/queues.csv") +
                std::filesystem::file_size(cut + "/flows.csv"),
            queues_bytes + flows_bytes);
  EXPECT_EQ(summary_json(r)["csv_stopped_at_s"], 0.002);
  EXPECT_NE(human_summary(r).find("CSV series stop at 0.002000 s (lab.csv_limit)"),
            std::string::npos);
  // The run itself is the same.
  ASSERT_EQ(r.flows.size(), all.flows.size());
  for (size_t f = 0; f < r.flows.size(); ++f) {
    EXPECT_EQ(r.flows[f].received_bytes, all.flows[f].received_bytes);
    EXPECT_DOUBLE_EQ(r.flows[f].tail_throughput_bps, all.flows[f].tail_throughput_bps);
  }
  ASSERT_EQ(r.queues.size(), all.queues.size());
  for (size_t q = 0; q < r.queues.size(); ++q)
    EXPECT_DOUBLE_EQ(r.queues[q].steady_ingress_bytes, all.queues[q].steady_ingress_bytes);
}

}  // namespace
}  // namespace fcswitch::lab

namespace fcswitch::lab {
namespace {

const std::string kTaggerClos = std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/tagger-clos.toml";
const std::string kTaggerLoop = std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/tagger-loop.toml";
const std::string kPfcAlone = "lab.tagger_rules=tagger-clos.single.rules.toml";

// Tagger §8.1, routing loop: without Tagger the loop deadlocks and F2, sharing its first link,
// stops; with tagger-gen's rules the looping flow is demoted to lossy after its second bounce
// (and dropped there), nothing lossless is dropped, and F2 keeps moving.
TEST(LabTagger, RoutingLoopDeadlocksUnderPfcAloneNotWithTagger) {
  const LabResult pfc = run(kTaggerLoop, {kPfcAlone});
  ASSERT_TRUE(pfc.deadlock.detected);
  EXPECT_EQ(pfc.lossless_drops, 0u);
  EXPECT_EQ(pfc.flows[0].tail_throughput_bps, 0.0);  // F2 (H2 → H5)
  EXPECT_TRUE(pfc.conservation.holds());

  const LabResult tagger = run(kTaggerLoop, {});
  EXPECT_FALSE(tagger.deadlock.detected);
  EXPECT_EQ(tagger.lossless_drops, 0u);
  EXPECT_GT(tagger.conservation.dropped, 0u);       // F1 in the lossy queue, dropped there
  EXPECT_EQ(tagger.flows[1].received_packets, 0u);  // F1 never arrives
  // F2 shares T1 → S1 with F1's first pass and its tag-2 pass: a share of it, well above 0.
  EXPECT_GT(tagger.flows[0].tail_throughput_bps, 2e9);
  EXPECT_TRUE(tagger.conservation.holds());
  EXPECT_EQ(tagger.pool_in_use_after_shutdown, 0u);
}

// Tagger Fig. 3 / §8.1 "Deadlock due to one bounce": under PFC alone (one tag, so every
// bounced packet stays in priority 3) the cycle of egress queues S1 → T2 → S2 → T3 locks and
// both bounced flows stop; with the rules (ELP = up-down + 1-bounce) nothing locks, every flow
// gets half of its shared link, nothing lossless is dropped, and the bounced packets wait in
// the second tag's queue (priority 4) downstream of the bounce.
TEST(LabTagger, OneBounceDeadlocksUnderPfcAloneNotWithTagger) {
  const LabResult pfc = run(kTaggerClos, {kPfcAlone});
  ASSERT_TRUE(pfc.deadlock.detected);
  const std::vector<std::string>& cycle = pfc.deadlock.cycle;
  for (const char* queue : {"S1:T2:prio3", "T2:S2:prio3", "S2:T3:prio3", "T3:S1:prio3"})
    EXPECT_NE(std::find(cycle.begin(), cycle.end(), queue), cycle.end()) << queue;
  EXPECT_EQ(pfc.flows[0].tail_throughput_bps, 0.0);  // blue
  EXPECT_EQ(pfc.flows[1].tail_throughput_bps, 0.0);  // green
  EXPECT_EQ(pfc.lossless_drops, 0u);
  EXPECT_TRUE(pfc.conservation.holds());

  const LabResult r = run(kTaggerClos, {});
  EXPECT_FALSE(r.deadlock.detected);
  expect_conserved(r);
  for (const FlowResult& f : r.flows) EXPECT_NEAR(f.tail_throughput_bps, 4.92e9, 0.1e9) << f.from;
  bool bounced_queue_used = false;
  for (const QueueResult& q : r.queues)
    if (q.node == "S2" && q.port == "T2" && q.priority == 4 && q.tail_input_bps > 4e9)
      bounced_queue_used = true;
  EXPECT_TRUE(bounced_queue_used) << "green's packets, bounced at T2, reach S2 with tag 2";
}

// A Theorem 5.1 violation (T2 raises to tag 2, S2 lowers back to tag 1): the cycle runs
// through priority 4 at T2 → S2 and priority 3 elsewhere. The detector follows a packet into
// the queue its new tag chose, so it sees the cycle even though priorities differ along it.
TEST(LabTagger, DetectorFollowsRewrittenPriorityAroundTheCycle) {
  const std::string lowering = "lab.tagger_rules=" + std::string(FCSWITCH_SOURCE_DIR) +
                               "/tests/lab/tagger-clos.lowering.rules.toml";
  const LabResult r = run(kTaggerClos, {lowering});
  ASSERT_TRUE(r.deadlock.detected);
  const std::vector<std::string>& cycle = r.deadlock.cycle;
  for (const char* queue : {"S1:T2:prio3", "T2:S2:prio4", "S2:T3:prio3", "T3:S1:prio3"})
    EXPECT_NE(std::find(cycle.begin(), cycle.end(), queue), cycle.end()) << queue;
  EXPECT_EQ(r.lossless_drops, 0u);
}

}  // namespace
}  // namespace fcswitch::lab

// A lab host honours Pyrrha's PAUSE per congestion root (Pyrrha §4.4, issue 20 item 2): one
// TrafficHost on rings of its own and a link, stepped as the lab's virtual clock steps it, its
// flows on hand-given paths, and hand-made PAUSE/RESUME/MERGE frames in its RX ring. A flow
// whose path crosses a paused root stops — new frames and retransmissions alike, within the
// NIC stage — while the host's other flow goes on; RESUME, MERGE and a new path let it go
// again; a held flow sets no timer (the host does not spin); the time held and the episodes
// are counted per flow; nothing of it is data. Then whole lab runs: the report's Pyrrha
// fields appear only where Pyrrha runs, the stage costs a lone flow none of its rate, and on
// Pyrrha's testbed the switches' own PAUSEs stop the hosts and nothing is lost.

#include <gtest/gtest.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/units.h"
#include "lab/lab_link.h"
#include "lab/lab_network.h"
#include "lab/link_fifo_port_io.h"
#include "results/lab_report.h"
#include "scenario/lab_scenario.h"
#include "scenario/scenario_file.h"
#include "switch/control_pool.h"
#include "test_constants.h"
#include "traffic/flow_frame.h"
#include "traffic/traffic_host.h"
#include "wire/mac_address.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch::lab {
namespace {

constexpr int kPyrrhaPriority = 3;
constexpr uint8_t kDscp = 24;  // class selector 3 → priority 3
using test_constants::kFrameBytes;
constexpr uint64_t kFlowRateBps = 1'000'000'000;
constexpr uint64_t kLineRateBps = 10'000'000'000;
constexpr unsigned kNicRingFrames = 4;  // the lab's tx_ring_frames
constexpr uint64_t kStageBytes = 4096;
constexpr uint64_t kUs = 1'000, kMs = 1'000'000;  // virtual ticks are ns
// A frame every (1000 + 24 wire bytes) × 8 / 1 Gb/s = 8.192 µs: 122 per ms.
constexpr double kFramesPerMs = 1e6 / 8192.0;

// H sends to R through S; the lab names its switches by their index in the topology.
constexpr char kTwoHosts[] = R"([lab]
duration = "1ms"
[switch]
lossless_priorities = [3]
mac_learning = false
[flow_control]
engine = "none"
[[hosts]]
name = "H"
[[hosts]]
name = "R"
[[switches]]
name = "S"
ports = [{ name = "h" }, { name = "r" }]
routes = { H = "h", R = "r" }
[[links]]
a = "H"
b = "S:h"
[[links]]
a = "R"
b = "S:r"
)";

// Flow A leaves the ToR by its uplink 4 and switch 1 by port 2; flow B shares the uplink and
// leaves switch 2 by port 3 (Pyrrha §4.2: the onward path of each flow).
const std::vector<pyrrha::RootId> kPathA{{0, 4}, {1, 2}};
const std::vector<pyrrha::RootId> kPathB{{0, 4}, {2, 3}};
constexpr pyrrha::RootId kUplink{0, 4};
constexpr pyrrha::RootId kRootA{1, 2};
constexpr pyrrha::RootId kRootBeyondA{1, 5};

config::PyrrhaSettings pyrrha_settings() {
  config::PyrrhaSettings s;
  s.priority = kPyrrhaPriority;
  s.table.k_pause_bytes = 2000;
  s.table.k_resume_bytes = 1000;
  s.table.max_roots = 64;
  s.stage_bytes = kStageBytes;
  return s;
}

wire::PyrrhaFrame pyrrha_frame(wire::PyrrhaOpcode opcode, pyrrha::RootId root,
                               pyrrha::RootId old_root = {}) {
  wire::PyrrhaFrame f;
  f.source = wire::MacAddress{0x02FC'0000'0001ull};  // the switch port facing the host
  f.opcode = opcode;
  f.priority = kPyrrhaPriority;
  f.hops = opcode == wire::PyrrhaOpcode::kPause || opcode == wire::PyrrhaOpcode::kMerge ? 2 : 0;
  f.root = {root.switch_id, root.port};
  if (opcode == wire::PyrrhaOpcode::kMerge) f.old_root = {old_root.switch_id, old_root.port};
  return f;
}

// One TrafficHost on rings of its own, run by the test as the lab's virtual clock runs it: its NIC
// ring (4 frames, as the lab's) is taken by a 10 Gb/s LabLink into `wire_`, emptied at every
// step (a frame's time is when it is fully on the wire); `in_` is where the switch's frames
// arrive.
class HostBench {
 public:
  explicit HostBench(const std::string& name, bool pyrrha = true)
      : scenario_(parse_lab_scenario(kTwoHosts, name + ".toml", {})),
        node_(scenario_.nodes[0]),
        in_(std::make_unique<LinkFifo>(1024)),
        out_(std::make_unique<LinkFifo>(kNicRingFrames)),
        wire_(std::make_unique<LinkFifo>(4096)),
        link_(out_.get(), wire_.get(), LabLinkParams{kLineRateBps, 0, {24, 64}, 0}, ticks_) {
    EXPECT_TRUE(node_.host);
    if (pyrrha) node_.config.pyrrha = pyrrha_settings();
    data_pool_ =
        rte_pktmbuf_pool_create((name + "_data").c_str(), 4095, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
    control_pool_ = create_control_pool(name + "_ctl", 255, 0);
    if (!data_pool_ || !control_pool_) throw std::runtime_error("bench pools");
    host_ = std::make_unique<TrafficHost>(node_,
                                          std::make_unique<LinkFifoPortIo>(in_.get(), out_.get()),
                                          data_pool_, control_pool_, ticks_, received_);
  }
  ~HostBench() {
    host_->flush();
    link_.discard_in_flight();
    host_.reset();
    for (LinkFifo* ring : {in_.get(), out_.get(), wire_.get()}) {
      rte_mbuf* m;
      while (ring->dequeue(&m)) rte_pktmbuf_free(m);
    }
    rte_mempool_free(data_pool_);
    rte_mempool_free(control_pool_);
  }

  // A flow from H to R of Pyrrha's class: at `rate_bps` (0: as fast as the NIC takes frames),
  // or over a transport.
  void add_flow(int id, std::vector<pyrrha::RootId> path, uint64_t rate_bps = kFlowRateBps,
                FlowTransport transport = FlowTransport::kRaw, uint64_t on_off_ns = 0) {
    FlowSpec flow;
    flow.id = id;
    flow.src = 0;
    flow.dst = 1;
    flow.dscp = kDscp;
    flow.priority = kPyrrhaPriority;
    flow.frame_bytes = kFrameBytes;
    flow.rate_bps = rate_bps;
    flow.transport = transport;
    flow.on_ns = flow.off_ns = on_off_ns;
    const FlowFrameSpec frames{node_.mac, scenario_.nodes[1].mac,    lab_node_ip(0), lab_node_ip(1),
                               kDscp,     static_cast<uint32_t>(id), kFrameBytes,    false};
    sent_.push_back(std::make_unique<FlowSent>());
    on_wire_.resize(sent_.size());
    host_->source().add_flow(flow, make_flow_frame(frames), *sent_.back(), transport_,
                             std::move(path));
  }

  // The switch sends `frame` to the host: it arrives now.
  void deliver(const wire::PyrrhaFrame& frame) {
    rte_mbuf* m = rte_pktmbuf_alloc(control_pool_);
    ASSERT_NE(m, nullptr);
    wire::encode_pyrrha(frame, rte_pktmbuf_mtod(m, uint8_t*));
    m->data_len = m->pkt_len = wire::kPyrrhaFrameBytes;
    ASSERT_TRUE(in_->enqueue(m));
  }

  // Steps at the times the host and its link say they act, up to `until` (and at it).
  void run_until(uint64_t until) {
    while (true) {
      step();
      if (now_ >= until) return;
      const uint64_t next = std::min(host_->next_action_ticks(now_), link_.next_event_ticks());
      now_ = std::min(std::max(next, now_ + 1), until);
    }
  }
  // One step at now_: the link and the host's tasks, in rounds until nothing moves (a bounded
  // number: a host that never settles is a bug).
  void step() {
    for (int round = 0;; ++round) {
      ASSERT_LT(round, 1000) << "the host does not settle at " << now_;
      bool busy = link_.poll(now_);
      for (Task* t : host_->tasks()) busy |= t->run_once(now_);
      drain();
      if (!busy) return;
    }
  }

  // Frames of flow `id` fully on the wire in [from, to).
  uint64_t sent_between(int id, uint64_t from, uint64_t to) const {
    uint64_t n = 0;
    for (uint64_t t : on_wire_[id])
      if (t >= from && t < to) ++n;
    return n;
  }
  const FlowSent& sent(int id) const { return *sent_[id]; }
  TrafficHost& host() { return *host_; }
  uint64_t now() const { return now_; }
  TransportSettings& transport() { return transport_; }

 private:
  void drain() {
    rte_mbuf* pkts[32];
    while (const unsigned n = wire_->dequeue_burst(pkts, 32)) {
      for (unsigned i = 0; i < n; ++i) {
        const auto stamp = read_flow_stamp(rte_pktmbuf_mtod(pkts[i], const uint8_t*),
                                           rte_pktmbuf_data_len(pkts[i]));
        if (stamp && stamp->flow < on_wire_.size()) on_wire_[stamp->flow].push_back(now_);
      }
      rte_pktmbuf_free_bulk(pkts, n);
    }
  }

  LabScenario scenario_;
  LabNode node_;
  TickRate ticks_{kNsPerSecond};
  std::unique_ptr<LinkFifo> in_, out_, wire_;
  LabLink link_;
  rte_mempool* data_pool_ = nullptr;
  rte_mempool* control_pool_ = nullptr;
  FlowReceivedRecords received_ = FlowReceivedRecords(3);  // the sink's, by flow id
  std::vector<std::unique_ptr<FlowSent>> sent_;
  std::vector<std::vector<uint64_t>> on_wire_;  // per flow: when each frame left
  TransportSettings transport_;
  std::unique_ptr<TrafficHost> host_;
  uint64_t now_ = 0;
};

TEST(LabHostPyrrha, PauseHoldsTheFlowThroughTheRootOnlyResumeAndMergeReleaseIt) {
  HostBench bench("ph_ab");
  bench.add_flow(0, kPathA);  // A
  bench.add_flow(1, kPathB);  // B
  bench.run_until(1 * kMs);
  EXPECT_NEAR(bench.sent_between(0, 0, 1 * kMs), kFramesPerMs, 2);
  EXPECT_NEAR(bench.sent_between(1, 0, 1 * kMs), kFramesPerMs, 2);

  // PAUSE(1:2): only A crosses it. A stops at once, B keeps its rate.
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kPause, kRootA));
  bench.run_until(2 * kMs);
  EXPECT_LE(bench.sent_between(0, 1 * kMs, 2 * kMs), 1u);  // the one on its way, at most
  EXPECT_NEAR(bench.sent_between(1, 1 * kMs, 2 * kMs), kFramesPerMs, 2);
  EXPECT_TRUE(bench.host().root_pauses()->paused(kRootA));

  // RESUME(1:2): A goes on at its rate.
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kResume, kRootA));
  bench.run_until(3 * kMs);
  EXPECT_NEAR(bench.sent_between(0, 2 * kMs, 3 * kMs), kFramesPerMs, 2);
  EXPECT_NEAR(bench.sent_between(1, 2 * kMs, 3 * kMs), kFramesPerMs, 2);

  // Paused again, then the root moves further down (MERGE{1:5, 1:2}, Pyrrha §4.1): the old
  // root's pause is void and the new root starts resumed, so A goes on.
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kPause, kRootA));
  bench.run_until(3 * kMs + 500 * kUs);
  EXPECT_LE(bench.sent_between(0, 3 * kMs, 3 * kMs + 500 * kUs), 1u);
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kMerge, kRootBeyondA, kRootA));
  bench.run_until(4 * kMs);
  EXPECT_NEAR(bench.sent_between(0, 3 * kMs + 500 * kUs, 4 * kMs), kFramesPerMs / 2, 2);
  EXPECT_NEAR(bench.sent_between(1, 3 * kMs, 4 * kMs), kFramesPerMs, 2);

  // Per flow: two episodes of A, held 1 ms and 0.5 ms exactly (the host acts in the poll the
  // frame arrives in); B never.
  EXPECT_EQ(bench.sent(0).pyrrha_pauses.read(), 2u);
  EXPECT_EQ(bench.sent(0).pyrrha_blocked_ticks.read(), 1 * kMs + 500 * kUs);
  EXPECT_EQ(bench.sent(0).pyrrha_blocked_since.read(), 0u);
  EXPECT_EQ(bench.sent(1).pyrrha_pauses.read(), 0u);
  EXPECT_EQ(bench.sent(1).pyrrha_blocked_ticks.read(), 0u);
  // The host's counts; the frames were control, never data.
  const pyrrha::HostRootPauses& pauses = *bench.host().root_pauses();
  EXPECT_EQ(pauses.received(pyrrha::MessageKind::kPause), 2u);
  EXPECT_EQ(pauses.received(pyrrha::MessageKind::kResume), 1u);
  EXPECT_EQ(pauses.received(pyrrha::MessageKind::kMerge), 1u);
  EXPECT_EQ(pauses.roots_paused(), 0u);
  EXPECT_EQ(bench.host().sink().pyrrha_frames(), 4u);
  EXPECT_EQ(bench.host().sink().foreign_frames(), 0u);
  EXPECT_EQ(bench.host().rx().data_packets(), 0u);
}

// Frames of a held flow that may still leave after its PAUSE: those already in its class's
// NIC queue, which the source keeps to Pyrrha's stage (4096 bytes: five 1000-byte frames, the
// fifth crossing the mark), the NIC ring's and the one on the wire. Without the stage the
// source keeps up to 64 frames queued and TX takes bursts of 32 from them: in this test 46 of
// A's frames then still left after its PAUSE.
constexpr uint64_t kFramesPastTheFlowsMax = 5 + kNicRingFrames + 1;
// (1000 + 24) bytes × 8 at 10 Gb/s: 1 220.7 frames per ms.
constexpr double kLineFramesPerMs = 1e6 / 819.2;

TEST(LabHostPyrrha, ALineRateFlowStopsWithinTheStageAndTheOtherTakesTheLine) {
  HostBench bench("ph_line");
  bench.add_flow(0, kPathA, 0);
  bench.add_flow(1, kPathB, 0);
  bench.run_until(1 * kMs);
  EXPECT_NEAR(bench.sent_between(0, 0, 1 * kMs), kLineFramesPerMs / 2, 3);
  EXPECT_NEAR(bench.sent_between(1, 0, 1 * kMs), kLineFramesPerMs / 2, 3);
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kPause, kRootA));
  bench.run_until(2 * kMs);
  EXPECT_LE(bench.sent_between(0, 1 * kMs, 2 * kMs), kFramesPastTheFlowsMax);
  EXPECT_NEAR(bench.sent_between(1, 1 * kMs, 2 * kMs), kLineFramesPerMs, kFramesPastTheFlowsMax);
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kResume, kRootA));
  bench.run_until(3 * kMs);
  // Halves again, once B's frames queued ahead of the RESUME have left; the line never idles.
  const uint64_t a = bench.sent_between(0, 2 * kMs, 3 * kMs);
  const uint64_t b = bench.sent_between(1, 2 * kMs, 3 * kMs);
  EXPECT_NEAR(a, kLineFramesPerMs / 2, kFramesPastTheFlowsMax);
  EXPECT_NEAR(a + b, kLineFramesPerMs, 2);
}

// The stage leaves room for a frame or two at each poll: the flows of the class still share
// the NIC evenly (served in turn from the one after the last that sent, not from wherever the
// poll's rotation starts).
TEST(LabHostPyrrha, FlowsShareTheNicEvenlyThroughTheStage) {
  HostBench bench("ph_share");
  for (int id : {0, 1, 2}) bench.add_flow(id, id == 1 ? kPathB : kPathA, 0);
  bench.run_until(2 * kMs);
  for (int id : {0, 1, 2})
    EXPECT_NEAR(bench.sent_between(id, 1 * kMs, 2 * kMs), kLineFramesPerMs / 3, 2) << id;
}

// A root every flow crosses holds them all; then the host has nothing to do by itself until
// the RESUME comes — not even at the start of an on-off flow's next on phase: no timer, no
// busy loop.
TEST(LabHostPyrrha, AHostWhoseFlowsAreAllHeldSetsNoTimer) {
  HostBench bench("ph_idle");
  bench.add_flow(0, kPathA);
  bench.add_flow(1, kPathB);
  bench.add_flow(2, kPathA, kFlowRateBps, FlowTransport::kRaw, 100 * kUs);  // on-off
  bench.run_until(150 * kUs);  // in the on-off flow's off phase, until 200 µs
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kPause, kUplink));
  bench.run_until(160 * kUs);
  EXPECT_EQ(bench.host().next_action_ticks(bench.now()), kNeverTicks);
  const uint64_t polls = bench.host().source().polls();
  bench.run_until(5 * kMs);  // one jump: nothing wakes the host
  // The step it ended with at 160 µs again, and the one at 5 ms: nothing between (not the
  // on-off flow's next on phase either).
  EXPECT_EQ(bench.host().source().polls() - polls, 2u);
  for (int id : {0, 1, 2}) EXPECT_EQ(bench.sent_between(id, 160 * kUs, 5 * kMs), 0u) << id;
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kResume, kUplink));
  bench.run_until(6 * kMs);
  EXPECT_NEAR(bench.sent_between(0, 5 * kMs, 6 * kMs), kFramesPerMs, 2);
  EXPECT_NEAR(bench.sent_between(1, 5 * kMs, 6 * kMs), kFramesPerMs, 2);
  // Five on phases of 100 µs, each of 13 frames 8.192 µs apart from the phase's start.
  EXPECT_EQ(bench.sent_between(2, 5 * kMs, 6 * kMs), 65u);
  // Held from the PAUSE at 150 µs to the RESUME at 5 ms, all three.
  for (int id : {0, 1, 2})
    EXPECT_EQ(bench.sent(id).pyrrha_blocked_ticks.read(), 5 * kMs - 150 * kUs) << id;
}

// A reliable flow under PAUSE: its RTO still fires (the transport's timer runs on), but the
// go-back-N resend waits for the RESUME — "not even retransmissions".
TEST(LabHostPyrrha, AHeldFlowSendsNoRetransmission) {
  HostBench bench("ph_rto");
  bench.transport().window.window_bytes = 4 * kFrameBytes;
  bench.transport().window.rto_ns = 1 * kMs;
  bench.add_flow(0, kPathA, 0, FlowTransport::kWindow);
  bench.run_until(100 * kUs);  // its window of 4 went; no ACK ever comes back here
  ASSERT_EQ(bench.sent(0).packets.read(), 4u);
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kPause, kRootA));
  bench.run_until(3 * kMs);  // the RTO fired at 1 ms while held
  EXPECT_GE(bench.sent(0).timeouts.read(), 1u);
  EXPECT_EQ(bench.sent(0).retransmissions.read(), 0u);
  EXPECT_EQ(bench.sent(0).packets.read(), 4u);
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kResume, kRootA));
  bench.run_until(3 * kMs + 10 * kUs);
  EXPECT_EQ(bench.sent(0).retransmissions.read(), 4u);  // the window again, once resumed
}

// Rerouted (a link failed, [[events]]): the flow's new path misses the paused root, and it
// goes at the host's next poll.
TEST(LabHostPyrrha, ANewPathWithoutThePausedRootLetsTheFlowGo) {
  HostBench bench("ph_reroute");
  bench.add_flow(0, kPathA);
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kPause, kRootA));
  bench.run_until(1 * kMs);
  EXPECT_EQ(bench.sent(0).packets.read(), 0u);
  bench.host().source().set_pyrrha_path(0, kPathB);
  bench.run_until(2 * kMs);
  EXPECT_NEAR(bench.sent_between(0, 1 * kMs, 2 * kMs), kFramesPerMs, 2);
}

// Without [pyrrha] the host has no paused roots, its flows no path, and its RX frees Pyrrha's
// frames as control frames it does not act on.
TEST(LabHostPyrrha, AHostWithoutPyrrhaIgnoresItsFrames) {
  HostBench bench("ph_off", /*pyrrha=*/false);
  bench.add_flow(0, kPathA);
  bench.deliver(pyrrha_frame(wire::PyrrhaOpcode::kPause, kRootA));
  bench.run_until(1 * kMs);
  EXPECT_EQ(bench.host().root_pauses(), nullptr);
  EXPECT_NEAR(bench.sent_between(0, 0, 1 * kMs), kFramesPerMs, 2);
  EXPECT_EQ(bench.host().sink().pyrrha_frames(), 0u);
  EXPECT_EQ(bench.host().rx().control_frames(), 1u);
}

// Two racks on one spine, routed: L1h1 sends to L2h1 at line rate. With [pyrrha] (the lab
// copies it to every node), the flow knows its path, the report has its Pyrrha fields (never
// held: one flow congests nothing) and the hosts' Pyrrha counts, and the flow keeps its rate
// though its NIC queue is kept to the stage. Without, no Pyrrha key at all.
constexpr char kTwoRacks[] = R"([lab]
duration = "2ms"
[switch]
lossless_priorities = [3]
mac_learning = false
[flow_control]
engine = "none"
[topology]
spec = "leaf-spine:2,1,2"
routing = "shortest"
[[flows]]
from = "L1h1"
to = "L2h1"
priority = 3
)";

TEST(LabHostPyrrha, TheReportCarriesPyrrhaFieldsOnlyWherePyrrhaRuns) {
  std::array<double, 2> throughput{};
  for (bool pyrrha : {false, true}) {
    const std::string text = std::string(kTwoRacks) + (pyrrha ? "[pyrrha]\npriority = 3\n" : "");
    LabNetwork network(parse_lab_scenario(text, "two-racks.toml", {}));
    const LabResult r = network.run();
    ASSERT_EQ(r.flows.size(), 1u);
    throughput[pyrrha] = r.flows[0].tail_throughput_bps;
    const auto json = summary_json(r);
    const auto& flow = json["flows"][0];
    EXPECT_EQ(flow.contains("pyrrha_blocked_s"), pyrrha);
    EXPECT_EQ(flow.contains("pyrrha_pauses"), pyrrha);
    int host_counts = 0;
    for (const auto& port : json["ports"]) host_counts += port.contains("pyrrha");
    EXPECT_EQ(host_counts, pyrrha ? 4 : 0);  // every host's NIC
    if (pyrrha) {
      EXPECT_EQ(flow["pyrrha_blocked_s"], 0.0);
      EXPECT_EQ(flow["pyrrha_pauses"], 0u);
    }
    EXPECT_TRUE(r.conservation.holds());
  }
  EXPECT_GT(throughput[0], 9.8e9);
  EXPECT_NEAR(throughput[1], throughput[0], 0.001 * throughput[0]);
}

// Pyrrha's testbed (config/lab/pyrrha-testbed.toml, Pyrrha §5.2 Fig. 8) with the switches'
// real PAUSE and RESUME: the three senders are held (the incast by the root at R1's ToR port),
// which is what keeps the ToRs lossless — hosts that go on sending overflow their ToR's
// ingress (1 851 lossless drops at L1 and L2 in this scenario, with τ = 14.5 µs, when the
// hosts' RX drops Pyrrha's frames). Every frame the switches sent a host is a PAUSE or a
// RESUME it took, none counted as data.
TEST(LabHostPyrrha, TheTestbedsHostsStopWhenTheirSwitchPausesThemAndNothingIsLost) {
  LabNetwork network(
      load_lab_scenario(std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/pyrrha-testbed.toml", {}));
  const LabResult r = network.run();
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_EQ(r.conservation.dropped, 0u);
  EXPECT_TRUE(r.conservation.holds());
  ASSERT_EQ(r.flows.size(), 3u);
  for (const FlowResult& f : r.flows) {
    ASSERT_TRUE(f.pyrrha_blocked_s) << f.from;
    EXPECT_GT(*f.pyrrha_blocked_s, 0.0) << f.from;
    EXPECT_GT(f.pyrrha_pauses, 0u) << f.from;
    EXPECT_EQ(f.missing, 0u) << f.from;
  }
  for (const PortResult& p : r.ports) {
    if (p.pyrrha.empty()) continue;
    std::map<std::string, uint64_t> c(p.pyrrha.begin(), p.pyrrha.end());
    EXPECT_EQ(c["frames_received"], c["pause_received"] + c["resume_received"] +
                                        c["merge_received"] + c["dealloc_received"])
        << p.node;
    EXPECT_EQ(p.foreign_frames, 0u) << p.node;
  }
}

}  // namespace
}  // namespace fcswitch::lab

namespace fcswitch::lab {
namespace {

// Not Pyrrha's, but this file's bench: a DCQCN flow's rate that its byte counter raises as it
// sends (DCQCN's RP, fast recovery: R_C = (R_T + R_C)/2 per B bytes) reaches its pacer at the
// host's next poll, as when every poll copied every flow's rate, not at the increase timer
// 55 µs later (HostSource's rate_moved_ list).
TEST(LabHostDcqcn, ARateTheByteCounterRaisesReachesThePacerAtTheNextPoll) {
  HostBench bench("dcqcn_bytes", /*pyrrha=*/false);
  bench.transport().dcqcn.byte_counter_bytes = 5 * kFrameBytes;
  bench.transport().dcqcn.initial_alpha = 1.0;
  bench.add_flow(0, {}, /*rate_bps=*/0, FlowTransport::kDcqcn);
  bench.run_until(10 * kUs);
  EXPECT_EQ(bench.sent(0).rate_bps.read(), kLineRateBps);
  const uint64_t cnp_at = bench.now();
  bench.host().source().on_cnp(0, cnp_at);
  EXPECT_EQ(bench.sent(0).rate_bps.read(), kLineRateBps / 2);  // α = 1 halves R_C
  // 5 frames at 5 Gb/s take 8.2 µs; 20 µs is well before the increase timer (55 µs).
  bench.run_until(cnp_at + 20 * kUs);
  EXPECT_GE(bench.sent(0).rate_bps.read(), (kLineRateBps + kLineRateBps / 2) / 2);
  EXPECT_LT(bench.sent(0).rate_bps.read(), kLineRateBps);
}

}  // namespace
}  // namespace fcswitch::lab

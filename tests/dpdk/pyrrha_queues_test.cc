// Pyrrha's queues in FWD (switch/fwd/pyrrha_queues.h; issue 20): packets classified by their
// predicted path into the OQ or an isolation queue, held while their root is paused, moved
// through the tiers, sent through a short egress stage with a byte round robin, and never
// reordered within a flow. The switch's state and mbufs are real; the "TX" is the test taking
// the egress ring and releasing what it takes, as TX does.

#include <gtest/gtest.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <cstring>
#include <map>
#include <stdexcept>
#include <vector>

#include "core/packet_meta.h"
#include "frame_builder.h"
#include "switch/fwd/pyrrha_queues.h"
#include "switch/switch_state.h"
#include "test_constants.h"
#include "wire/frame_header.h"

// A namespace of its own: a unity build puts it beside pyrrha_framer_test.cc, whose flows
// have the same names.
namespace fcswitch::pyrrha_queues_test {
namespace {

constexpr int kPorts = 4;
constexpr int kEgress = 2;  // towards the downstream switches of every path below
constexpr int kIngress = 0;
constexpr int kQueue = 3;
constexpr uint32_t kSwitchId = 10;
using test_constants::kFrameBytes;
// Flows by destination MAC, and where each goes after us (switch:egress, near to far).
constexpr uint64_t kDstA = 0x02'00'00'00'00'0Aull;  // over root candidate 20:1
constexpr uint64_t kDstB = 0x02'00'00'00'00'0Bull;  // over 21:0, never a root here
constexpr uint64_t kDstC = 0x02'00'00'00'00'0Cull;  // over 20:1, then 30:2
constexpr uint64_t kDstD = 0x02'00'00'00'00'0Dull;  // over 40:3, then 20:1
constexpr pyrrha::RootId kRootA{20, 1};
constexpr pyrrha::RootId kRootFar{30, 2};
constexpr pyrrha::RootId kRootFalse{40, 3};

class FixedPaths : public PyrrhaPathOracle {
 public:
  size_t onward_path(int, const wire::MacAddress& dst, const topology::FiveTuple&,
                     std::span<pyrrha::PathHop> out) const override {
    const auto it = paths_.find(dst.value);
    if (it == paths_.end()) return 0;
    for (size_t i = 0; i < it->second.size(); ++i) out[i] = it->second[i];
    return it->second.size();
  }
  bool faces_host(int port) const override { return port == kIngress; }

 private:
  std::map<uint64_t, std::vector<pyrrha::PathHop>> paths_ = {
      {kDstA, {{20, 1}}},
      {kDstB, {{21, 0}}},
      {kDstC, {{20, 1}, {30, 2}}},
      {kDstD, {{40, 3}, {20, 1}}},
  };
};

struct Sent {
  uint64_t dst;
  uint32_t sequence;
  friend bool operator==(const Sent&, const Sent&) = default;
};

class PyrrhaQueuesTest : public ::testing::Test {
 protected:
  PyrrhaQueuesTest() : state_(kPorts, name(), 64, 1024) {
    state_.add_pyrrha_rings(name());
    pool_ = rte_pktmbuf_pool_create((name() + "_pool").c_str(), 511, 0, 0,
                                    RTE_MBUF_DEFAULT_BUF_SIZE, 0);
    if (!pool_) throw std::runtime_error("pool");
    config::PyrrhaSettings s;
    s.priority = kQueue;
    s.switch_id = kSwitchId;
    s.table.k_pause_bytes = 3000;   // three packets
    s.table.k_resume_bytes = 1500;  // one
    s.table.max_isolation_queues = 4;
    s.table.max_roots = 16;
    s.stage_bytes = 2000;  // two packets in the ring at most
    queues_ = std::make_unique<PyrrhaQueues>(s, std::make_shared<FixedPaths>(),
                                             std::vector<bool>{true, false, false, false}, state_);
  }
  ~PyrrhaQueuesTest() override {
    take_all();
    rte_mbuf* held[512];
    const unsigned n = queues_->take_held(held, 512);
    rte_pktmbuf_free_bulk(held, n);
    queues_.reset();
    rte_mempool_free(pool_);
  }
  static std::string name() {
    static int instance = 0;
    return "pq" + std::to_string(instance++);
  }

  // FWD's admit(): charge, then hold.
  void arrive(uint64_t dst, uint32_t sequence) {
    traffic::FrameSpec spec;
    spec.dst = dst;
    spec.src = 0x02'00'00'00'00'01ull;
    spec.dscp = 24;
    spec.sequence = sequence;
    spec.size = kFrameBytes;
    const traffic::Frame frame = traffic::build_frame(spec);
    rte_mbuf* m = rte_pktmbuf_alloc(pool_);
    ASSERT_NE(m, nullptr);
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size())), frame.data(),
                frame.size());
    const PacketMeta meta{.ingress_port = kIngress,
                          .priority = kQueue,
                          .egress_queue = kQueue,
                          .lossy = false,
                          .pabo = 0,
                          .charged_bytes = kFrameBytes};
    state_.charge(meta, kEgress);
    state_.meta(m) = meta;
    const auto header =
        wire::parse_frame_header(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m));
    queues_->hold(m, kIngress, kEgress, header);
  }
  void message(wire::PyrrhaOpcode op, pyrrha::RootId root, uint8_t hops,
               pyrrha::RootId old_root = {}) {
    wire::PyrrhaFrame f;
    f.opcode = op;
    f.priority = kQueue;
    f.hops = hops;
    f.root = {root.switch_id, root.port};
    f.old_root = {old_root.switch_id, old_root.port};
    queues_->received(kEgress, f);
  }
  // TX: takes what the egress ring holds and releases it.
  std::vector<Sent> take_all() {
    std::vector<Sent> sent;
    rte_mbuf* m;
    while (rte_ring_sc_dequeue(state_.egress_ring(kEgress, kQueue, 0),
                               reinterpret_cast<void**>(&m)) == 0) {
      const uint8_t* data = rte_pktmbuf_mtod(m, const uint8_t*);
      uint32_t sequence;
      std::memcpy(&sequence, data + rte_pktmbuf_data_len(m) - 4, 4);
      sent.push_back({wire::MacAddress::from_bytes(data).value, ntohl_(sequence)});
      state_.release(state_.meta(m), kEgress);
      rte_pktmbuf_free(m);
    }
    return sent;
  }
  // Serves and takes until nothing moves: everything that may leave has left.
  std::vector<Sent> drain() {
    std::vector<Sent> all;
    for (int i = 0; i < 1000; ++i) {
      queues_->serve();
      const auto sent = take_all();
      if (sent.empty()) break;
      all.insert(all.end(), sent.begin(), sent.end());
    }
    return all;
  }
  // What the table sent out of `port`, in order.
  std::vector<pyrrha::Message> messages(int port) {
    std::vector<pyrrha::Message> out;
    pyrrha::Message m;
    while (rte_ring_sc_dequeue_elem(state_.pyrrha_rings[port].get(), &m, sizeof(m)) == 0)
      out.push_back(m);
    return out;
  }
  static uint32_t ntohl_(uint32_t v) { return __builtin_bswap32(v); }

  SwitchState state_;
  rte_mempool* pool_ = nullptr;
  std::unique_ptr<PyrrhaQueues> queues_;
};

std::vector<pyrrha::Message> of_root(const std::vector<pyrrha::Message>& all, pyrrha::RootId root) {
  std::vector<pyrrha::Message> out;
  for (const pyrrha::Message& m : all)
    if (m.root == root) out.push_back(m);
  return out;
}

std::vector<uint32_t> sequences_to(const std::vector<Sent>& sent, uint64_t dst) {
  std::vector<uint32_t> out;
  for (const Sent& s : sent)
    if (s.dst == dst) out.push_back(s.sequence);
  return out;
}

TEST_F(PyrrhaQueuesTest, PausedRootHoldsOnlyItsFlowAndPausesTheIngressAboveKPause) {
  message(wire::PyrrhaOpcode::kPause, kRootA, 1);
  for (uint32_t i = 0; i < 4; ++i) {
    arrive(kDstA, i);
    arrive(kDstB, i);
  }
  const auto sent = drain();
  // The victim's four go; the congested flow's wait in the root's IQ.
  EXPECT_EQ(sequences_to(sent, kDstB), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_TRUE(sequences_to(sent, kDstA).empty());
  EXPECT_EQ(queues_->held_packets(), 4u);
  EXPECT_EQ(queues_->table().state(kRootA, kEgress), pyrrha::IqState::kPaused);
  // 4000 bytes for the root from ingress 0 > K_pause: PAUSE(root, hop 2) upstream, once.
  // (B's 4000 bytes in the OQ before any left made this port a root too, for a while:
  // PAUSE(10:2) and RESUME(10:2), §4.1.)
  const auto up = of_root(messages(kIngress), kRootA);
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0].kind, pyrrha::MessageKind::kPause);
  EXPECT_EQ(up[0].hop, 2);

  message(wire::PyrrhaOpcode::kResume, kRootA, 0);
  EXPECT_EQ(sequences_to(drain(), kDstA), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(queues_->held_packets(), 0u);
  // Below K_resume: RESUME upstream; the IQ, empty and resumed, is released (Fig. 6).
  const auto resumed = of_root(messages(kIngress), kRootA);
  ASSERT_EQ(resumed.size(), 1u);
  EXPECT_EQ(resumed[0].kind, pyrrha::MessageKind::kResume);
  EXPECT_EQ(queues_->table().state(kRootA, kEgress), pyrrha::IqState::kUnassigned);
}

TEST_F(PyrrhaQueuesTest, AnIsolatedFlowNeverOvertakesItsOwnOlderPacketsInTheOq) {
  // Before the root is known, A's packets join the OQ; two fill the stage, two wait.
  for (uint32_t i = 0; i < 4; ++i) arrive(kDstA, i);
  queues_->serve();
  // The root appears: A's later packets go to its IQ; it resumes while 2 and 3 are still in
  // the OQ. The OQ's turn sends 2, the IQ's turn comes with 3 older than its head: it waits.
  message(wire::PyrrhaOpcode::kPause, kRootA, 1);
  for (uint32_t i = 4; i < 6; ++i) arrive(kDstA, i);
  EXPECT_EQ(queues_->table().state(kRootA, kEgress), pyrrha::IqState::kPaused);
  message(wire::PyrrhaOpcode::kResume, kRootA, 0);
  auto sent = take_all();
  const auto rest = drain();
  sent.insert(sent.end(), rest.begin(), rest.end());
  EXPECT_EQ(sequences_to(sent, kDstA), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
  queues_->serve();                       // publishes the counters
  EXPECT_GT(queues_->order_waits(), 0u);  // the IQ's head did wait for packet 3
}

TEST_F(PyrrhaQueuesTest, TiersReleaseAPacketOnlyWhenEveryRootOnItsPathIsResumed) {
  message(wire::PyrrhaOpcode::kPause, kRootFar, 2);
  message(wire::PyrrhaOpcode::kPause, kRootA, 1);
  for (uint32_t i = 0; i < 3; ++i) arrive(kDstC, i);
  EXPECT_TRUE(drain().empty());
  // The near root resumes: they move on to the far root's IQ, still paused.
  message(wire::PyrrhaOpcode::kResume, kRootA, 0);
  EXPECT_TRUE(drain().empty());
  EXPECT_EQ(queues_->held_packets(), 3u);
  EXPECT_EQ(queues_->table().pool().bytes(kEgress, *queues_->table().iq_of(kRootFar, kEgress)),
            3u * kFrameBytes);
  message(wire::PyrrhaOpcode::kResume, kRootFar, 0);
  EXPECT_EQ(sequences_to(drain(), kDstC), (std::vector<uint32_t>{0, 1, 2}));
}

TEST_F(PyrrhaQueuesTest, APacketBoundForTheWireAtAnIqsHeadLetsNoneBehindItSkipAFartherRoot) {
  // C's first two wait in the far root's IQ (paused) once the near root has resumed.
  message(wire::PyrrhaOpcode::kPause, kRootFar, 2);
  message(wire::PyrrhaOpcode::kPause, kRootA, 1);
  arrive(kDstC, 0);
  arrive(kDstC, 1);
  message(wire::PyrrhaOpcode::kResume, kRootA, 0);
  EXPECT_TRUE(drain().empty());
  // The near root's IQ now holds A's packet (its last root: bound for the wire) ahead of C's
  // third (bound for the far root's IQ). Pause it and resume it so both are in it together.
  message(wire::PyrrhaOpcode::kPause, kRootA, 1);
  arrive(kDstA, 0);
  arrive(kDstC, 2);
  message(wire::PyrrhaOpcode::kResume, kRootA, 0);
  // A's goes; C's third joins the far root's IQ behind 0 and 1 (§4.3), and stays there while
  // that root is paused: it neither overtakes them nor escapes its root.
  EXPECT_EQ(drain(), (std::vector<Sent>{{kDstA, 0}}));
  EXPECT_EQ(queues_->table().pool().bytes(kEgress, *queues_->table().iq_of(kRootFar, kEgress)),
            3u * kFrameBytes);
  message(wire::PyrrhaOpcode::kResume, kRootFar, 0);
  EXPECT_EQ(sequences_to(drain(), kDstC), (std::vector<uint32_t>{0, 1, 2}));
}

TEST_F(PyrrhaQueuesTest, OqAndAResumedIqShareThePortPacketByPacket) {
  message(wire::PyrrhaOpcode::kPause, kRootA, 1);
  for (uint32_t i = 0; i < 8; ++i) arrive(kDstA, i);  // older than all of B: no order wait
  message(wire::PyrrhaOpcode::kResume, kRootA, 0);
  for (uint32_t i = 0; i < 8; ++i) arrive(kDstB, i);
  const auto sent = drain();
  ASSERT_EQ(sent.size(), 16u);
  // Equal frames, one quantum each: within any 8 consecutive sends, 4 of each (±1).
  int a = 0;
  for (size_t i = 0; i < 8; ++i) a += sent[i].dst == kDstA;
  EXPECT_GE(a, 3);
  EXPECT_LE(a, 5);
  EXPECT_EQ(sequences_to(sent, kDstA), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(sequences_to(sent, kDstB), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST_F(PyrrhaQueuesTest, AMergeDrainsTheOldIqIntoTheNewRootsInOrder) {
  // A false-positive root downstream (40:3) pauses us; D's packets wait in its IQ.
  message(wire::PyrrhaOpcode::kPause, kRootFalse, 1);
  for (uint32_t i = 0; i < 3; ++i) arrive(kDstD, i);
  EXPECT_TRUE(drain().empty());
  // It learns of the real root 20:1 beyond it: MERGE. Its IQ here goes soft-merging; the new
  // root's IQ starts resumed (the authors' code). Later packets queue behind the earlier ones.
  message(wire::PyrrhaOpcode::kMerge, kRootA, 2, kRootFalse);
  EXPECT_EQ(queues_->table().state(kRootFalse, kEgress), pyrrha::IqState::kSoftMerging);
  for (uint32_t i = 3; i < 5; ++i) arrive(kDstD, i);
  EXPECT_EQ(sequences_to(drain(), kDstD), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  // Empty and soft-merging: released.
  EXPECT_EQ(queues_->table().state(kRootFalse, kEgress), pyrrha::IqState::kUnassigned);
  EXPECT_EQ(queues_->held_packets(), 0u);
}

TEST_F(PyrrhaQueuesTest, APauseNamingThisSwitchIsIgnored) {
  message(wire::PyrrhaOpcode::kPause, pyrrha::RootId{kSwitchId, 1}, 3);
  for (uint32_t i = 0; i < 2; ++i) arrive(kDstA, i);
  EXPECT_EQ(sequences_to(drain(), kDstA), (std::vector<uint32_t>{0, 1}));
  queues_->serve();
  EXPECT_EQ(queues_->loop_guard_ignored(), 1u);
}

TEST_F(PyrrhaQueuesTest, AFailedRootPortResumesWhatItPaused) {
  // Four packets in the OQ before any leaves: above K_pause, the port is a root (§4.1).
  for (uint32_t i = 0; i < 4; ++i) arrive(kDstB, i);
  const pyrrha::RootId self{kSwitchId, kEgress};
  const auto paused = of_root(messages(kIngress), self);
  ASSERT_EQ(paused.size(), 1u);
  EXPECT_EQ(paused[0].kind, pyrrha::MessageKind::kPause);
  // Appendix A: its link fails; nothing more reaches its OQ, so what it paused goes again.
  queues_->port_changed(kEgress, false);
  const auto resumed = of_root(messages(kIngress), self);
  ASSERT_EQ(resumed.size(), 1u);
  EXPECT_EQ(resumed[0].kind, pyrrha::MessageKind::kResume);
  queues_->port_changed(kEgress, true);
  EXPECT_EQ(sequences_to(drain(), kDstB), (std::vector<uint32_t>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace fcswitch::pyrrha_queues_test

// TX(p) sends Pyrrha's messages (pyrrha::Message, FWD's congestion-root table → SwitchState::
// pyrrha_rings[p]) as 60-byte frames (wire/pyrrha_frame.h) from the control pool, ahead of any
// data, in the order FWD produced them (switch/pyrrha_framer.h; Pyrrha §4.4).

#include <gtest/gtest.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "frame_builder.h"
#include "lab/lab_network.h"
#include "node/switch_node.h"
#include "pyrrha/pyrrha_message.h"
#include "ring_node_bed.h"
#include "scenario/scenario_file.h"
#include "switch/control_pool.h"
#include "switch/fwd/pyrrha_path_oracle.h"
#include "switch/port_io.h"
#include "switch/switch_state.h"
#include "switch/tx_task.h"
#include "test_constants.h"
#include "wire/control_frame_kind.h"
#include "wire/ecn_mark.h"
#include "wire/ether_type.h"
#include "wire/frame_header.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {
namespace {

using pyrrha::Message;
using pyrrha::MessageKind;
using pyrrha::RootId;

constexpr int kPyrrhaPriority = 3;
constexpr uint64_t kSwitchMac = 0x02'00'00'00'AA'01ull;
constexpr uint32_t kDataBytes = 200;

using test_beds::SentFrame;

// A port that takes at most `per_burst` frames per tx_burst and cannot say how many it would
// take (PortIo::tx_room's default, as an ethdev whose PMD does not tell): TX learns that the
// port is full only from what tx_burst did not take. The frames wait in `ring` for the test.
class PortTakingAtMost final : public PortIo {
 public:
  PortTakingAtMost(rte_ring* ring, uint16_t per_burst) : ring_(ring), per_burst_(per_burst) {}
  uint16_t rx_burst(rte_mbuf**, uint16_t) override { return 0; }
  uint16_t tx_burst(rte_mbuf** pkts, uint16_t count) override {
    return static_cast<uint16_t>(rte_ring_sp_enqueue_burst(ring_, reinterpret_cast<void**>(pkts),
                                                           std::min(count, per_burst_), nullptr));
  }

 private:
  rte_ring* ring_;
  uint16_t per_burst_;
};

struct PoolFree {
  void operator()(rte_mempool* pool) const { rte_mempool_free(pool); }
};
struct RingFree {
  void operator()(rte_ring* ring) const { rte_ring_free(ring); }
};

// One TX task of a switch that runs Pyrrha, on a PortTakingAtMost, with its own data and
// control pools. The test plays FWD (data into the egress queue of the Pyrrha priority,
// messages into the Pyrrha ring) and the link (it drains what TX handed to the port).
class PyrrhaTx {
 public:
  PyrrhaTx(const std::string& name, unsigned control_mbufs, uint16_t port_per_burst,
           int pyrrha_priority = kPyrrhaPriority)
      : state_(1, name, 64, 64),
        data_pool_(rte_pktmbuf_pool_create((name + "_data").c_str(), 63, 0, 0,
                                           RTE_MBUF_DEFAULT_BUF_SIZE, 0)),
        control_pool_(create_control_pool(name + "_ctl", control_mbufs, 0)),
        wire_(rte_ring_create((name + "_wire").c_str(), 256, 0, RING_F_SP_ENQ | RING_F_SC_DEQ)) {
    if (!data_pool_ || !wire_) throw std::runtime_error("pool or ring");
    state_.add_pyrrha_rings(name);
    io_ = std::make_unique<PortTakingAtMost>(wire_.get(), port_per_burst);
    TxFlowControl flow;
    flow.mac = wire::MacAddress{kSwitchMac};
    flow.control_pool = control_pool_.get();
    flow.pyrrha_priority = pyrrha_priority;
    tx_task_ = std::make_unique<TxTask>("tx:" + name, 0, *io_, false, SchedulerConfig{},
                                        std::move(flow), state_);
  }
  ~PyrrhaTx() {
    rte_mbuf* held[64];
    rte_pktmbuf_free_bulk(held, tx_task_->take_held(held, 64));
    drain();
    rte_mbuf* m;
    for (const auto& lane : state_.egress_rings[0][kPyrrhaPriority])
      while (rte_ring_sc_dequeue(lane.get(), reinterpret_cast<void**>(&m)) == 0)
        rte_pktmbuf_free(m);
  }

  TxTask& tx() { return *tx_task_; }
  rte_mempool* control_pool() const { return control_pool_.get(); }
  rte_mempool* data_pool() const { return data_pool_.get(); }

  // FWD: a data frame of the Pyrrha priority, charged to the buffer, into the egress queue.
  void queue_data(uint32_t sequence) {
    traffic::FrameSpec spec;
    spec.dst = 0x02'00'00'00'00'0Bull;
    spec.src = 0x02'00'00'00'00'01ull;
    spec.sequence = sequence;
    spec.size = kDataBytes;
    const auto frame = traffic::build_frame(spec);
    rte_mbuf* m = rte_pktmbuf_alloc(data_pool());
    ASSERT_NE(m, nullptr);
    std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size())), frame.data(),
                frame.size());
    const PacketMeta meta{0, kPyrrhaPriority, kPyrrhaPriority, 0, 0, kDataBytes};
    state_.meta(m) = meta;
    state_.meta.rx_ticks(m) = 0;
    state_.charge(meta, 0);
    ASSERT_EQ(rte_ring_sp_enqueue(state_.egress_ring(0, kPyrrhaPriority, 0), m), 0);
  }
  // FWD's congestion-root table: a message out of this port.
  void fwd_sends(Message message) {
    ASSERT_EQ(rte_ring_sp_enqueue_elem(state_.pyrrha_rings[0].get(), &message, sizeof(Message)), 0);
  }
  unsigned messages_in_ring() const { return rte_ring_count(state_.pyrrha_rings[0].get()); }
  const SwitchState& state() const { return state_; }

  // The link: what the port holds, in order; the mbufs go back to their pools.
  std::vector<SentFrame> drain() {
    std::vector<SentFrame> frames;
    rte_mbuf* m;
    while (rte_ring_sc_dequeue(wire_.get(), reinterpret_cast<void**>(&m)) == 0) {
      const auto* data = rte_pktmbuf_mtod(m, const uint8_t*);
      frames.push_back(SentFrame{{data, data + rte_pktmbuf_data_len(m)}, m->pool});
      rte_pktmbuf_free(m);
    }
    return frames;
  }

 private:
  // Declared before the task, so destroyed after it.
  SwitchState state_;
  std::unique_ptr<rte_mempool, PoolFree> data_pool_;
  std::unique_ptr<rte_mempool, PoolFree> control_pool_;
  std::unique_ptr<rte_ring, RingFree> wire_;
  std::unique_ptr<PortIo> io_;
  std::unique_ptr<TxTask> tx_task_;
};

Message message(MessageKind kind, RootId root, uint16_t hop, RootId old_root = {}) {
  Message m;
  m.kind = kind;
  m.root = root;
  m.old_root = old_root;
  m.hop = hop;
  m.port = 0;
  return m;
}

// The frame `m` must become, written out by hand (not through to_pyrrha_frame): our MAC, the
// Pyrrha priority, the message's hops and root, and the old root for MERGE only.
wire::PyrrhaFrame expected_frame(const Message& m) {
  wire::PyrrhaFrame f;
  f.source = wire::MacAddress{kSwitchMac};
  f.opcode = static_cast<wire::PyrrhaOpcode>(static_cast<uint8_t>(m.kind) + 1);
  f.priority = kPyrrhaPriority;
  f.hops = static_cast<uint8_t>(m.hop);
  f.root = wire::PyrrhaRoot{m.root.switch_id, m.root.port};
  if (m.kind == MessageKind::kMerge)
    f.old_root = wire::PyrrhaRoot{m.old_root.switch_id, m.old_root.port};
  return f;
}

// `frame` is a 60-byte Pyrrha frame from the control pool that decodes to `m`'s frame.
void expect_frame_of(const SentFrame& frame, const Message& m, rte_mempool* control_pool) {
  EXPECT_EQ(frame.bytes.size(), wire::kPyrrhaFrameBytes);
  EXPECT_EQ(frame.pool, control_pool);
  ASSERT_EQ(
      wire::control_frame_kind(frame.bytes.data(), frame.bytes.size(), wire::kEtherTypeMacControl),
      wire::ControlFrameKind::kPyrrha);
  const auto decoded = wire::decode_pyrrha(frame.bytes.data(), frame.bytes.size());
  ASSERT_EQ(decoded.status, wire::ControlDecodeStatus::kOk);
  EXPECT_EQ(decoded.frame, expected_frame(m));
}

void expect_data(const SentFrame& frame, uint32_t sequence, rte_mempool* data_pool) {
  EXPECT_EQ(frame.bytes.size(), kDataBytes);
  EXPECT_EQ(frame.pool, data_pool);
  EXPECT_EQ(traffic::sequence_of(frame.bytes), sequence);
}

// PAUSE, RESUME, MERGE and DEALLOC with data queued at the same time: one poll sends the four
// messages first, in FWD's order, each as exactly its frame (a PAUSE whose old root FWD left
// set still carries none), then the data.
TEST(PyrrhaFramer, MessagesLeaveAsFramesAheadOfDataInFwdsOrder) {
  PyrrhaTx bed("pfr_order", 63, kBurstSize);
  for (uint32_t s = 0; s < 3; ++s) bed.queue_data(s);
  const std::vector<Message> messages = {
      message(MessageKind::kPause, {7, 3}, 2, {9, 9}),
      message(MessageKind::kResume, {7, 3}, 0),
      message(MessageKind::kMerge, {5, 1}, 3, {7, 3}),
      message(MessageKind::kDealloc, {5, 1}, 0),
  };
  for (const Message& m : messages) bed.fwd_sends(m);

  EXPECT_TRUE(bed.tx().run_once(0));
  const auto sent = bed.drain();
  ASSERT_EQ(sent.size(), 7u);
  for (size_t i = 0; i < messages.size(); ++i) {
    SCOPED_TRACE(i);
    expect_frame_of(sent[i], messages[i], bed.control_pool());
  }
  for (uint32_t s = 0; s < 3; ++s) expect_data(sent[4 + s], s, bed.data_pool());
  for (MessageKind kind :
       {MessageKind::kPause, MessageKind::kResume, MessageKind::kMerge, MessageKind::kDealloc})
    EXPECT_EQ(bed.tx().pyrrha_frames_sent(kind), 1u) << pyrrha::name(kind);
  EXPECT_EQ(bed.tx().packets(kPyrrhaPriority), 3u);
  EXPECT_EQ(bed.tx().control_alloc_failures(), 0u);
  EXPECT_EQ(bed.tx().held(), 0u);
  EXPECT_EQ(rte_mempool_in_use_count(bed.control_pool()), 0u);
}

// A port that takes 3 frames a burst: what it did not take waits, in order, before a message
// FWD sends later and before the data, though the port would take data in the same poll.
TEST(PyrrhaFramer, FramesThePortDidNotTakeGoFirstAtTheNextPoll) {
  PyrrhaTx bed("pfr_full", 63, 3);
  for (uint32_t s = 0; s < 2; ++s) bed.queue_data(s);
  std::vector<Message> messages;
  for (uint16_t i = 0; i < 6; ++i)
    messages.push_back(message(i % 2 ? MessageKind::kResume : MessageKind::kPause,
                               {100u + i, static_cast<uint16_t>(i)}, 1));
  for (size_t i = 0; i < 5; ++i) bed.fwd_sends(messages[i]);

  EXPECT_TRUE(bed.tx().run_once(0));
  EXPECT_EQ(bed.tx().held(), 2u);  // two framed, not taken; the data not picked yet
  std::vector<SentFrame> sent = bed.drain();
  ASSERT_EQ(sent.size(), 3u);
  bed.fwd_sends(messages[5]);
  EXPECT_TRUE(bed.tx().run_once(1));  // the three framed, then a data burst of its own
  for (auto& frame : bed.drain()) sent.push_back(std::move(frame));
  ASSERT_EQ(sent.size(), 8u);
  for (size_t i = 0; i < messages.size(); ++i) {
    SCOPED_TRACE(i);
    expect_frame_of(sent[i], messages[i], bed.control_pool());
  }
  for (uint32_t s = 0; s < 2; ++s) expect_data(sent[6 + s], s, bed.data_pool());
  EXPECT_EQ(bed.tx().pyrrha_frames_sent(MessageKind::kPause), 3u);
  EXPECT_EQ(bed.tx().pyrrha_frames_sent(MessageKind::kResume), 3u);
}

// A control pool of 2 mbufs and 5 messages: each poll frames what the pool gives, counts the
// shortage and leaves the rest in FWD's ring, first in line; a poll that gets no mbuf at all
// sends nothing and sets no timer (the lab polls a starved node every round instead). All five
// leave, once each, in order. The data is not held for them (as for feedback frames): it waits
// for frames built, not for mbufs.
TEST(PyrrhaFramer, AShortControlPoolDelaysAndCountsButLosesNothing) {
  PyrrhaTx bed("pfr_short", 2, kBurstSize);
  bed.queue_data(0);
  std::vector<Message> messages;
  for (uint16_t i = 0; i < 5; ++i)
    messages.push_back(message(MessageKind::kPause, {200u + i, i}, static_cast<uint16_t>(i + 1)));
  for (const Message& m : messages) bed.fwd_sends(m);

  EXPECT_TRUE(bed.tx().run_once(10));
  EXPECT_EQ(bed.tx().pyrrha_control_alloc_failures(), 1u);
  EXPECT_EQ(bed.tx().control_alloc_failures(), 1u);
  EXPECT_EQ(bed.state().alloc_failures.load(), 1u);  // the node's: the lab's starved-node check
  EXPECT_EQ(bed.messages_in_ring(), 3u);
  // Both control mbufs are in the port's ring: nothing can be framed.
  EXPECT_FALSE(bed.tx().run_once(20));
  EXPECT_EQ(bed.tx().pyrrha_control_alloc_failures(), 2u);
  EXPECT_EQ(bed.messages_in_ring(), 3u);
  EXPECT_EQ(bed.tx().next_action_ticks(), kNeverTicks);
  std::vector<SentFrame> sent = bed.drain();
  ASSERT_EQ(sent.size(), 3u);
  expect_data(sent[2], 0, bed.data_pool());
  sent.pop_back();

  EXPECT_TRUE(bed.tx().run_once(30));
  EXPECT_EQ(bed.tx().pyrrha_control_alloc_failures(), 3u);
  for (auto& frame : bed.drain()) sent.push_back(std::move(frame));
  EXPECT_TRUE(bed.tx().run_once(40));
  EXPECT_EQ(bed.tx().pyrrha_control_alloc_failures(), 3u);  // one left, one mbuf: no shortage
  EXPECT_EQ(bed.state().alloc_failures.load(), 3u);
  for (auto& frame : bed.drain()) sent.push_back(std::move(frame));

  ASSERT_EQ(sent.size(), messages.size());
  for (size_t i = 0; i < messages.size(); ++i) {
    SCOPED_TRACE(i);
    expect_frame_of(sent[i], messages[i], bed.control_pool());
  }
  EXPECT_EQ(bed.tx().pyrrha_frames_sent(MessageKind::kPause), 5u);
  EXPECT_EQ(bed.messages_in_ring(), 0u);
  EXPECT_EQ(rte_mempool_in_use_count(bed.control_pool()), 0u);
}

// A message FWD sends after TX's poll (a layout that polls TX before FWD) makes TX due at once:
// the lab's virtual clock does not move past it. A poll that takes it is busy.
TEST(PyrrhaFramer, AMessageInTheRingIsWorkForTheNextPoll) {
  PyrrhaTx bed("pfr_due", 63, kBurstSize);
  EXPECT_FALSE(bed.tx().run_once(1000));
  EXPECT_EQ(bed.tx().next_action_ticks(), kNeverTicks);
  const Message resume = message(MessageKind::kResume, {4, 2}, 0);
  bed.fwd_sends(resume);
  EXPECT_EQ(bed.tx().next_action_ticks(), 1000u);
  EXPECT_TRUE(bed.tx().run_once(1000));
  EXPECT_EQ(bed.tx().next_action_ticks(), kNeverTicks);
  const auto sent = bed.drain();
  ASSERT_EQ(sent.size(), 1u);
  expect_frame_of(sent[0], resume, bed.control_pool());
}

// At shutdown the frames built and not taken are handed back (and held() says so before).
TEST(PyrrhaFramer, TakeHeldReturnsTheFramesThePortDidNotTake) {
  PyrrhaTx bed("pfr_held", 63, 1);
  for (uint16_t i = 0; i < 3; ++i) bed.fwd_sends(message(MessageKind::kDealloc, {i, i}, 0));
  bed.tx().run_once(0);
  EXPECT_EQ(bed.tx().held(), 2u);
  rte_mbuf* held[8];
  const unsigned n = bed.tx().take_held(held, 8);
  ASSERT_EQ(n, 2u);
  for (unsigned i = 0; i < n; ++i) {
    EXPECT_EQ(held[i]->pool, bed.control_pool());
    const auto decoded = wire::decode_pyrrha(rte_pktmbuf_mtod(held[i], const uint8_t*),
                                             rte_pktmbuf_data_len(held[i]));
    ASSERT_EQ(decoded.status, wire::ControlDecodeStatus::kOk);
    EXPECT_EQ(decoded.frame.root.switch_id, i + 1);
  }
  rte_pktmbuf_free_bulk(held, n);
  EXPECT_EQ(bed.tx().held(), 0u);
  EXPECT_EQ(bed.drain().size(), 1u);
  EXPECT_EQ(bed.tx().pyrrha_frames_sent(MessageKind::kDealloc), 1u);
  EXPECT_EQ(rte_mempool_in_use_count(bed.control_pool()), 0u);
}

// Pyrrha's rings with no Pyrrha priority to put in the frames is a wiring mistake.
TEST(PyrrhaFramer, RingsWithoutAPriorityAreRefused) {
  EXPECT_THROW(PyrrhaTx("pfr_nopri", 63, kBurstSize, -1), std::invalid_argument);
}

// --- A switch node running Pyrrha: RX → FWD's table → TX, frames on the ports ---

using test_constants::kHostMac;
constexpr uint64_t kDownstreamMac = 0x02'00'00'00'00'20ull;
constexpr uint64_t kDstA = 0x02'00'00'00'00'0Aull;  // behind root candidate 20:1
constexpr pyrrha::RootId kRootA{20, 1};
constexpr uint32_t kNodeSwitchId = 10;
constexpr uint32_t kNodeFrameBytes = 1000;

// Port 0 faces the host; packets to A leave by port 1 and cross switch 20's port 1 next.
class PathThroughRootA : public PyrrhaPathOracle {
 public:
  size_t onward_path(int, const wire::MacAddress& dst, const topology::FiveTuple&,
                     std::span<pyrrha::PathHop> out) const override {
    if (dst.value != kDstA) return 0;
    out[0] = kRootA;
    return 1;
  }
  bool faces_host(int port) const override { return port == 0; }
};

// Where a NodeBed's switch learns the onward paths: none (no [pyrrha]), an oracle handed to
// it (the lab's way), or its own config's [[pyrrha.paths]] (fcswitch's).
enum class Paths { kNoPyrrha, kOracle, kConfigTable };

// The same switch and paths as PathThroughRootA, in fcswitch's config.
constexpr char kPyrrhaWithPathTable[] = R"(
[pyrrha]
priority = 3
switch_id = 10
k_pause_bytes = 3000
k_resume_bytes = 1500
max_isolation_queues = 4
max_roots = 16
host_ports = ["a"]
[[pyrrha.paths]]
egress = "b"
to = "02:00:00:00:00:0a"
hops = ["20:1"]
)";

// The switch of a NodeBed: two ports, [pyrrha] on priority 3 by `paths`; `extra`: more
// config text.
config::SwitchConfig node_config(const std::string& name, Paths paths, const std::string& extra) {
  auto config = config::parse_switch_config(
      fmt::format(R"(
[switch]
name = "{}"
lossless_priorities = [3]
[flow_control]
engine = "none"
[[ports]]
name = "a"
device = "unused_a"
[[ports]]
name = "b"
device = "unused_b"
[[fib]]
mac = "02:00:00:00:00:0a"
port = "b"
{}{})",
                  name, paths == Paths::kConfigTable ? kPyrrhaWithPathTable : "", extra),
      "test.toml");
  if (paths == Paths::kOracle) {
    config::PyrrhaSettings pyrrha;
    pyrrha.priority = kPyrrhaPriority;
    pyrrha.switch_id = kNodeSwitchId;
    pyrrha.table.k_pause_bytes = 3 * kNodeFrameBytes;
    pyrrha.table.k_resume_bytes = kNodeFrameBytes + kNodeFrameBytes / 2;
    pyrrha.table.max_isolation_queues = 4;
    pyrrha.table.max_roots = 16;
    config.pyrrha = pyrrha;
  }
  return config;
}

// That switch on ring ports the test feeds and drains (test_beds::RingNodeBed).
class NodeBed : public test_beds::RingNodeBed {
 public:
  NodeBed(const std::string& name, Paths paths, const std::string& extra = "")
      : RingNodeBed(name, node_config(name, paths, extra), kSwitchMac,
                    paths == Paths::kOracle ? std::make_shared<PathThroughRootA>() : nullptr) {}
  static wire::MacAddress mac(int port) { return wire::MacAddress{kSwitchMac + uint64_t(port)}; }
};

std::vector<uint8_t> pyrrha_from_downstream(wire::PyrrhaOpcode op, uint8_t hops) {
  std::vector<uint8_t> bytes(wire::kPyrrhaFrameBytes);
  wire::encode_pyrrha({wire::MacAddress{kDownstreamMac},
                       op,
                       kPyrrhaPriority,
                       hops,
                       wire::PyrrhaRoot{kRootA.switch_id, kRootA.port},
                       {}},
                      bytes.data());
  return bytes;
}

std::vector<uint8_t> data_to_a(uint32_t sequence) {
  traffic::FrameSpec spec;
  spec.dst = kDstA;
  spec.src = kHostMac;
  spec.dscp = 24;  // class selector 3 → priority 3
  spec.sequence = sequence;
  spec.size = kNodeFrameBytes;
  return traffic::build_frame(spec);
}

// What the switch must send out of `port` about root A.
wire::PyrrhaFrame sent_about_root_a(int port, wire::PyrrhaOpcode op, uint8_t hops) {
  return wire::PyrrhaFrame{NodeBed::mac(port),
                           op,
                           kPyrrhaPriority,
                           hops,
                           wire::PyrrhaRoot{kRootA.switch_id, kRootA.port},
                           {}};
}

bool is_pyrrha(const SentFrame& frame) {
  return wire::control_frame_kind(frame.bytes.data(), frame.bytes.size(),
                                  wire::kEtherTypeMacControl) == wire::ControlFrameKind::kPyrrha;
}

wire::PyrrhaFrame decoded(const SentFrame& frame) {
  const auto result = wire::decode_pyrrha(frame.bytes.data(), frame.bytes.size());
  EXPECT_EQ(result.status, wire::ControlDecodeStatus::kOk);
  EXPECT_EQ(frame.bytes.size(), wire::kPyrrhaFrameBytes);
  return result.frame;
}

// The whole switch (Pyrrha §4.1, §4.4): downstream pauses root 20:1; four of the host's frames
// for A wait in its isolation queue, 4000 bytes from port a above K_pause, and the table's
// PAUSE(20:1, hop 2) leaves by port a as a frame with a's MAC and priority 3, from the control
// pool. The downstream's RESUME lets the four go by port b; below K_resume the table sends
// RESUME(20:1) up by port a, and, the host-facing leaf's IQ empty and resumed, DEALLOC(20:1)
// down by port b (the authors' CheckAndSendDealloc). The IQ is empty once FWD has moved its
// packets into the port's short egress stage (PyrrhaSettings::stage_bytes), so the DEALLOC,
// a control frame, leaves ahead of them.
void expect_pause_and_resume_through_root_a(NodeBed& bed) {
  ASSERT_TRUE(bed.node().tx(0).sends_pyrrha());
  ASSERT_TRUE(bed.node().tx(1).sends_pyrrha());
  bed.send(1, pyrrha_from_downstream(wire::PyrrhaOpcode::kPause, 1));
  bed.step();
  for (uint32_t s = 0; s < 4; ++s) bed.send(0, data_to_a(s));
  bed.step(4);

  const auto up = bed.drain(0);
  ASSERT_EQ(up.size(), 1u);
  ASSERT_TRUE(is_pyrrha(up[0]));
  EXPECT_EQ(up[0].pool, bed.control_pool());
  EXPECT_EQ(decoded(up[0]), sent_about_root_a(0, wire::PyrrhaOpcode::kPause, 2));
  EXPECT_TRUE(bed.drain(1).empty());  // held in the IQ
  EXPECT_EQ(bed.node().tx(0).pyrrha_frames_sent(MessageKind::kPause), 1u);

  bed.send(1, pyrrha_from_downstream(wire::PyrrhaOpcode::kResume, 0));
  bed.step(8);
  const auto resumed = bed.drain(0);
  ASSERT_EQ(resumed.size(), 1u);
  ASSERT_TRUE(is_pyrrha(resumed[0]));
  EXPECT_EQ(decoded(resumed[0]), sent_about_root_a(0, wire::PyrrhaOpcode::kResume, 0));
  const auto down = bed.drain(1);
  ASSERT_EQ(down.size(), 5u);
  ASSERT_TRUE(is_pyrrha(down[0]));
  EXPECT_EQ(decoded(down[0]), sent_about_root_a(1, wire::PyrrhaOpcode::kDealloc, 0));
  for (uint32_t s = 0; s < 4; ++s) {
    ASSERT_FALSE(is_pyrrha(down[1 + s]));
    EXPECT_EQ(traffic::sequence_of(down[1 + s].bytes), s);
  }
  EXPECT_EQ(bed.node().tx(0).pyrrha_frames_sent(MessageKind::kResume), 1u);
  EXPECT_EQ(bed.node().tx(1).pyrrha_frames_sent(MessageKind::kDealloc), 1u);
  EXPECT_EQ(bed.node().tx(0).control_alloc_failures(), 0u);
  EXPECT_TRUE(bed.node().progress().empty);
}

TEST(PyrrhaFramer, ASwitchPausesAndResumesItsUpstreamWithFramesOutOfTheIngressPort) {
  NodeBed bed("pfrnode", Paths::kOracle);
  expect_pause_and_resume_through_root_a(bed);
}

// fcswitch's way: the same switch with the paths in its config ([[pyrrha.paths]], host_ports)
// and no oracle handed to it isolates the same packets and sends the same frames.
TEST(PyrrhaFramer, FcswitchTakesTheOnwardPathsFromItsConfig) {
  NodeBed bed("pfrcfg", Paths::kConfigTable);
  expect_pause_and_resume_through_root_a(bed);
}

// Without [pyrrha] no TX has a framer (nor Pyrrha counters to report).
TEST(PyrrhaFramer, WithoutPyrrhaNoTxFramesIt) {
  NodeBed bed("pfrnone", Paths::kNoPyrrha);
  for (int p = 0; p < 2; ++p) EXPECT_FALSE(bed.node().tx(p).sends_pyrrha()) << p;
}

// ECN under Pyrrha (§6.2.2: HPCC's uncongested flows carry the OQ's length, congested ones
// their IQ's): a packet is marked by the depth of the queue it joins, not by the port's whole
// backlog. Four frames to A wait in the paused IQ; three to B (no root on its path) join the
// empty OQ and leave unmarked though 4000 bytes are held at the port, above the 2500-byte step.
// After RESUME, A's frames leave: only the fourth, which found 3000 bytes ahead in its IQ, CE.
constexpr uint64_t kDstB = 0x02'00'00'00'00'0Bull;
constexpr char kEcnStepAndRouteToB[] = R"(
[ecn]
queues = [3]
k_min = 2500
k_max = 2500
[[fib]]
mac = "02:00:00:00:00:0b"
port = "b"
)";

std::vector<uint8_t> ect_data(uint64_t dst, uint32_t sequence) {
  traffic::FrameSpec spec;
  spec.dst = dst;
  spec.src = kHostMac;
  spec.dscp = 24;
  spec.sequence = sequence;
  spec.size = kNodeFrameBytes;
  spec.ecn = static_cast<uint8_t>(wire::EcnCodepoint::kEct0);
  return traffic::build_frame(spec);
}

wire::EcnCodepoint ecn_of(const SentFrame& frame) {
  const auto header = wire::parse_frame_header(frame.bytes.data(), frame.bytes.size());
  return wire::read_ecn(frame.bytes.data(), header);
}

TEST(PyrrhaFramer, EcnMarksAPacketByTheQueueItJoins) {
  NodeBed bed("pfrecn", Paths::kConfigTable, kEcnStepAndRouteToB);
  bed.send(1, pyrrha_from_downstream(wire::PyrrhaOpcode::kPause, 1));
  bed.step();
  for (uint32_t s = 0; s < 4; ++s) bed.send(0, ect_data(kDstA, s));
  for (uint32_t s = 10; s < 13; ++s) bed.send(0, ect_data(kDstB, s));
  bed.step(4);
  const auto to_b = bed.drain(1);
  ASSERT_EQ(to_b.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(traffic::sequence_of(to_b[i].bytes), 10 + i);
    EXPECT_EQ(ecn_of(to_b[i]), wire::EcnCodepoint::kEct0) << i;
  }
  bed.send(1, pyrrha_from_downstream(wire::PyrrhaOpcode::kResume, 0));
  bed.step(8);
  std::vector<SentFrame> to_a;
  for (const SentFrame& f : bed.drain(1))
    if (!is_pyrrha(f)) to_a.push_back(f);
  ASSERT_EQ(to_a.size(), 4u);
  for (uint32_t s = 0; s < 4; ++s) {
    EXPECT_EQ(traffic::sequence_of(to_a[s].bytes), s);
    EXPECT_EQ(ecn_of(to_a[s]), s == 3 ? wire::EcnCodepoint::kCe : wire::EcnCodepoint::kEct0) << s;
  }
  bed.drain(0);
}

// --- In the lab: every message FWD's tables send leaves as a frame ---

// Pyrrha's testbed (config/lab/pyrrha-testbed.toml, Pyrrha Fig. 8) for 3 ms, all three flows
// at once, K_pause = 2 and K_resume = 1 one-hop BDPs (NOTES.md).
constexpr char kPyrrhaTestbed[] = R"([lab]
duration = "3ms"
clock = "virtual"
[topology]
spec = "leaf-spine:3,2,2"
rate = "10Gbps"
delay = "1us"
routing = "shortest"
[switch]
lossless_priorities = [3]
mac_learning = false
[buffer]
lossless_ingress = "1MB"
[flow_control]
response_time = "5us"
[pyrrha]
priority = 3
k_pause = 2
k_resume = 1
[[switches]]
name = "L1"
routes = { L3h1 = "S1" }
[[switches]]
name = "L2"
routes = { L3h1 = "S2", L3h2 = "S2" }
[[flows]]
from = "L1h1"
to = "L3h1"
priority = 3
[[flows]]
from = "L2h1"
to = "L3h1"
priority = 3
[[flows]]
from = "L2h2"
to = "L3h2"
priority = 3
)";

// The incast at L3 makes roots; their PAUSE, RESUME and DEALLOC cross the links to the cores
// and the leaves. By the end, every message each switch's table sent has left by TX as a
// frame, of the same kind, with no control mbuf missing (a message stuck in a ring, or one the
// virtual clock stepped past, would show here), the cores' tables took PAUSEs that came over
// the wire, and the hosts held flows for PAUSEs their ToR sent them (Pyrrha §4.4).
TEST(PyrrhaFramer, InTheLabEveryMessageATableSendsLeavesAsAFrame) {
  lab::LabNetwork network(lab::parse_lab_scenario(kPyrrhaTestbed, "pyrrha-testbed.toml", {}));
  const lab::LabResult result = network.run();
  EXPECT_EQ(result.pool_in_use_after_shutdown, 0u);
  uint64_t pauses = 0, pauses_taken_by_cores = 0;
  for (const auto& [name, sw] : network.switch_nodes()) {
    SCOPED_TRACE(name);
    ASSERT_NE(sw->fwd().pyrrha(), nullptr);
    for (size_t k = 0; k < pyrrha::kMessageKinds; ++k) {
      const auto kind = static_cast<MessageKind>(k);
      uint64_t framed = 0;
      for (int p = 0; p < sw->ports(); ++p) framed += sw->tx(p).pyrrha_frames_sent(kind);
      EXPECT_EQ(framed, sw->fwd().pyrrha()->messages_sent(kind)) << pyrrha::name(kind);
    }
    for (int p = 0; p < sw->ports(); ++p) EXPECT_EQ(sw->tx(p).control_alloc_failures(), 0u);
    pauses += sw->fwd().pyrrha()->messages_sent(MessageKind::kPause);
    if (name[0] == 'S')
      pauses_taken_by_cores += sw->fwd().pyrrha()->messages_received(MessageKind::kPause);
  }
  EXPECT_GT(pauses, 0u);
  EXPECT_GT(pauses_taken_by_cores, 0u);
  uint64_t flows_held = 0;
  for (const auto& flow : result.flows) flows_held += flow.pyrrha_pauses;
  EXPECT_GT(flows_held, 0u);
}

}  // namespace
}  // namespace fcswitch

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
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "frame_builder.h"
#include "node/switch_node.h"
#include "pyrrha/pyrrha_message.h"
#include "switch/control_pool.h"
#include "switch/port_io.h"
#include "switch/ring_port_io.h"
#include "switch/switch_state.h"
#include "switch/tx_task.h"
#include "wire/control_frame_kind.h"
#include "wire/ether_type.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {
namespace {

using pyrrha::Message;
using pyrrha::MessageKind;
using pyrrha::RootId;

constexpr int kPyrrhaPriority = 3;
constexpr uint64_t kSwitchMac = 0x02'00'00'00'AA'01ull;
constexpr uint32_t kDataBytes = 200;

// What left by the port: the frame's bytes and the pool its mbuf came from.
struct SentFrame {
  std::vector<uint8_t> bytes;
  rte_mempool* pool = nullptr;
};

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
  EXPECT_EQ(bed.tx().control_alloc_failures(), 1u);  // what the lab's starved-node check reads
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

// The switch node makes the rings and gives every TX a framer when [pyrrha] is set, and
// neither otherwise (its TX then has no Pyrrha counters to report).
TEST(PyrrhaFramer, TheSwitchNodeFramesPyrrhaOnEveryPortWhereItRuns) {
  rte_mempool* control_pool = create_control_pool("pfr_node_ctl", 63, 0);
  std::vector<rte_ring*> rings;
  for (bool with_pyrrha : {false, true}) {
    auto config = config::parse_switch_config(R"(
[switch]
name = "pfrnode"
lossless_priorities = [3]
[[ports]]
name = "a"
device = "net_null0"
[[ports]]
name = "b"
device = "net_null1"
)",
                                              "test.toml");
    if (with_pyrrha) {
      config::PyrrhaSettings pyrrha;
      pyrrha.priority = kPyrrhaPriority;
      config.pyrrha = pyrrha;
    }
    std::vector<NodePort> ports;
    for (int p = 0; p < 2; ++p) {
      for (const char* way : {"i", "o"}) {
        rings.push_back(rte_ring_create(fmt::format("pfrn{}{}{}", int(with_pyrrha), p, way).c_str(),
                                        64, 0, RING_F_SP_ENQ | RING_F_SC_DEQ));
        ASSERT_NE(rings.back(), nullptr);
      }
      ports.push_back(NodePort{std::make_unique<RingPortIo>(rings[rings.size() - 2], rings.back()),
                               wire::MacAddress{kSwitchMac + static_cast<uint64_t>(p)}});
    }
    SwitchNode node(config, kNsPerSecond, std::move(ports), control_pool);
    for (int p = 0; p < 2; ++p) EXPECT_EQ(node.tx(p).sends_pyrrha(), with_pyrrha) << p;
    EXPECT_TRUE(node.progress().empty);
  }
  for (rte_ring* ring : rings) rte_ring_free(ring);
  rte_mempool_free(control_pool);
}

}  // namespace
}  // namespace fcswitch

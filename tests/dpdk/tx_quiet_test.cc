// A TX task whose poll moved nothing returns at once from later polls while its inputs stay
// the same and no timer of its own is due (TxTask's quiet polls): what changes its inputs
// must still reach it — packets put in its queues, room in a port that was full, and a lower
// occupancy at a paused input, which another port's TX task causes by sending its packets.

#include <gtest/gtest.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/packet_meta.h"
#include "dpdk/ring.h"
#include "fc/pfc_engine.h"
#include "frame_builder.h"
#include "switch/control_pool.h"
#include "switch/ring_port_io.h"
#include "switch/switch_state.h"
#include "switch/tx_task.h"
#include "wire/ether_type.h"
#include "wire/pfc_frame.h"

namespace fcswitch {
namespace {

constexpr int kPriority = 3;
constexpr uint32_t kDataBytes = 200;
constexpr uint64_t kXoffBytes = 10'000;
constexpr uint64_t kXonBytes = 7'000;

struct PoolFree {
  void operator()(rte_mempool* pool) const { rte_mempool_free(pool); }
};

// TX of port 0 of a two-port switch, its port a ring that holds `wire_frames` frames (the
// test is the link: it drains the ring). With `pfc`, PFC on priority 3 watches input 0, and
// its τ meter takes `pause_quiet_ticks` without a frame for the upstream's stop.
class QuietTx {
 public:
  QuietTx(const std::string& name, bool pfc, unsigned wire_frames, uint64_t pause_quiet_ticks = 0)
      : state_(2, name, 64, 64),
        data_pool_(rte_pktmbuf_pool_create((name + "_data").c_str(), 63, 0, 0,
                                           RTE_MBUF_DEFAULT_BUF_SIZE, 0)),
        control_pool_(create_control_pool(name + "_ctl", 63, 0)),
        rx_(dpdk::make_spsc_ring(name + "_rx", 64)),
        wire_(dpdk::make_spsc_ring(name + "_wire", wire_frames)),
        io_(rx_.get(), wire_.get()) {
    if (!data_pool_ || !control_pool_) throw std::runtime_error("pool");
    TxFlowControl flow;
    flow.mac = wire::MacAddress{0x02'00'00'00'AA'01ull};
    flow.control_pool = control_pool_.get();
    flow.pause_quiet_ticks = pause_quiet_ticks;
    if (pfc) {
      fc::PfcParams params;
      params.xoff_bytes = kXoffBytes;
      params.xon_bytes = kXonBytes;
      const fc::EngineContext context{fc::LinkParams{}, TickRate{}, kPriority};
      flow.engines[kPriority].generator =
          std::make_unique<fc::PfcFeedbackGenerator>(params, context);
      flow.engines[kPriority].gate =
          std::make_unique<fc::PfcEgressGate>(context.link.rate_bps, TickRate{});
    }
    tx_ = std::make_unique<TxTask>("tx:" + name, 0, io_, false, SchedulerConfig{}, std::move(flow),
                                   state_);
  }
  ~QuietTx() {
    rte_mbuf* held[64];
    rte_pktmbuf_free_bulk(held, tx_->take_held(held, 64));
    drain();
    rte_mbuf* m;
    for (const auto& lane : state_.egress_rings[0][kPriority])
      while (rte_ring_sc_dequeue(lane.get(), reinterpret_cast<void**>(&m)) == 0)
        rte_pktmbuf_free(m);
  }

  bool poll(uint64_t now) { return tx_->run_once(now); }

  // FWD: `n` data frames of priority 3 from port 1, charged and put in port 0's queue.
  void queue_data(unsigned n) {
    traffic::FrameSpec spec;
    spec.size = kDataBytes;
    const auto frame = traffic::build_frame(spec);
    for (unsigned i = 0; i < n; ++i) {
      rte_mbuf* m = rte_pktmbuf_alloc(data_pool_.get());
      ASSERT_NE(m, nullptr);
      std::memcpy(rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size())), frame.data(),
                  frame.size());
      const PacketMeta meta{1, kPriority, kPriority, 0, 0, kDataBytes};
      state_.meta(m) = meta;
      state_.meta.rx_ticks(m) = 0;
      state_.charge(meta, 0);
      ASSERT_EQ(rte_ring_sp_enqueue(state_.egress_ring(0, kPriority, 1), m), 0);
      state_.egress_enqueued[0].increment();
    }
  }
  // FWD admits `bytes` at input 0 for port 1; port 1's TX task sends them (releases).
  PacketMeta charge_input(uint32_t bytes) {
    const PacketMeta meta{0, kPriority, kPriority, 0, 0, bytes};
    state_.charge(meta, 1);
    return meta;
  }
  void port1_sent(const PacketMeta& meta) { state_.release(meta, 1); }
  SwitchState& state() { return state_; }

  // The link takes what the port holds: the frames' bytes, in order.
  std::vector<std::vector<uint8_t>> drain() {
    std::vector<std::vector<uint8_t>> frames;
    rte_mbuf* m;
    while (rte_ring_sc_dequeue(wire_.get(), reinterpret_cast<void**>(&m)) == 0) {
      const auto* data = rte_pktmbuf_mtod(m, const uint8_t*);
      frames.emplace_back(data, data + rte_pktmbuf_data_len(m));
      rte_pktmbuf_free(m);
    }
    return frames;
  }

 private:
  SwitchState state_;  // declared before the task, so destroyed after it
  std::unique_ptr<rte_mempool, PoolFree> data_pool_;
  std::unique_ptr<rte_mempool, PoolFree> control_pool_;
  dpdk::RingPtr rx_;
  dpdk::RingPtr wire_;
  RingPortIo io_;
  std::unique_ptr<TxTask> tx_;
};

// The PFC time for priority 3 in a frame that must be a PFC frame with priority 3 enabled.
uint16_t pfc_time(const std::vector<uint8_t>& frame) {
  const auto decoded = wire::decode_pfc(frame.data(), frame.size());
  EXPECT_EQ(decoded.status, wire::ControlDecodeStatus::kOk);
  EXPECT_TRUE(decoded.frame.class_enable >> kPriority & 1u);
  return decoded.frame.time[kPriority];
}

TEST(TxQuietPolls, PacketsQueuedAfterAQuietPollAreSent) {
  QuietTx tx("txq_queued", false, 64);
  EXPECT_FALSE(tx.poll(100));
  EXPECT_FALSE(tx.poll(200));  // quiet: nothing came
  tx.queue_data(3);
  EXPECT_TRUE(tx.poll(300));
  EXPECT_EQ(tx.drain().size(), 3u);
  EXPECT_FALSE(tx.poll(400));
}

TEST(TxQuietPolls, AFullPortThatTakesFramesAgainGetsTheRest) {
  QuietTx tx("txq_room", false, 4);
  tx.queue_data(10);
  EXPECT_TRUE(tx.poll(100));  // 4 fit
  EXPECT_FALSE(tx.poll(200));
  EXPECT_FALSE(tx.poll(300));  // the port is still full
  EXPECT_EQ(tx.drain().size(), 4u);
  EXPECT_TRUE(tx.poll(400));
  EXPECT_EQ(tx.drain().size(), 4u);
  EXPECT_TRUE(tx.poll(500));
  EXPECT_EQ(tx.drain().size(), 2u);
}

// Out of XOFF the generator acts only on a fuller input, so releases are not watched; in XOFF
// a release by another port's TX task, with nothing else changed, must bring the XON.
TEST(TxQuietPolls, APausedInputDrainedByAnotherPortGetsItsXon) {
  QuietTx tx("txq_xon", true, 64);
  EXPECT_FALSE(tx.poll(100));
  const PacketMeta below = tx.charge_input(5'000);
  EXPECT_FALSE(tx.poll(200));  // below XOFF: quiet
  tx.port1_sent(below);        // a release out of XOFF: nothing to say
  EXPECT_FALSE(tx.poll(300));
  EXPECT_TRUE(tx.drain().empty());

  const PacketMeta above = tx.charge_input(12'000);
  EXPECT_TRUE(tx.poll(400));
  auto frames = tx.drain();
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_NE(pfc_time(frames[0]), 0);  // XOFF
  EXPECT_FALSE(tx.poll(500));
  EXPECT_FALSE(tx.poll(600));  // quiet again, paused

  tx.port1_sent(above);  // input 0 drains through port 1: below XON
  EXPECT_TRUE(tx.poll(700));
  frames = tx.drain();
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(pfc_time(frames[0]), 0);  // XON
}

// Where the switch's tasks share a thread and a TX task is polled only when its port is
// marked (the lab's schedule, switch/feedback_wake_bands.h), a charge or a release at input 0
// marks TX(0) only where its PFC generator would act on it: reaching XOFF, then, paused,
// falling below XON; or while its τ meter measures the pause, which must see every arrival
// until the input has been quiet for 1 000 ticks. Every other change leaves TX(0) unpolled.
TEST(TxWakes, MarkAnInputPortOnlyWhereItsGeneratorWouldAct) {
  QuietTx tx("txw_bands", true, 64, 1'000);
  PortWakeSet& wakes = tx.state().tx_wakes;
  wakes.enable(2);
  EXPECT_FALSE(tx.poll(100));  // notes its input: out of XOFF, quiet below it
  wakes.clear(0);
  const PacketMeta below = tx.charge_input(5'000);
  tx.port1_sent(below);
  EXPECT_FALSE(wakes.marked(0));
  const PacketMeta above = tx.charge_input(12'000);
  EXPECT_TRUE(wakes.marked(0));  // at XOFF
  wakes.clear(0);
  EXPECT_TRUE(tx.poll(200));
  ASSERT_EQ(tx.drain().size(), 1u);  // the pause, from which the meter measures
  EXPECT_FALSE(tx.poll(300));        // notes its input while the meter measures
  wakes.clear(0);
  const PacketMeta during = tx.charge_input(1'000);  // 13 000 bytes, above XON
  EXPECT_TRUE(wakes.marked(0));                      // an arrival the meter must see
  EXPECT_FALSE(tx.poll(1'300));  // quiet since the pause at 200: the measurement ends
  tx.port1_sent(during);
  EXPECT_FALSE(tx.poll(1'400));  // notes its input: paused, quiet from XON up
  wakes.clear(0);
  const PacketMeta more = tx.charge_input(1'000);  // 13 000 bytes
  tx.port1_sent(more);                             // 12 000
  EXPECT_FALSE(wakes.marked(0));
  tx.port1_sent(above);  // 0: below XON
  EXPECT_TRUE(wakes.marked(0));
  EXPECT_TRUE(tx.poll(500));
  const auto frames = tx.drain();
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(pfc_time(frames[0]), 0);  // XON
}

}  // namespace
}  // namespace fcswitch

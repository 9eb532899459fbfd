// CBFC credit arithmetic with hand-made numbers, across the 2^32 wrap, and a pure link
// simulation (sender gate → wire → receiver buffer → credit frames back) that crosses it.

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>

#include "fc/cbfc_engine.h"
#include "fc/engine_registry.h"

namespace fcswitch::fc {
namespace {

constexpr uint64_t k10G = 10'000'000'000;
const TickRate kNs{};

ControlMessage credit(uint32_t fccl, uint64_t at = 0) {
  return ControlMessage{at, ControlKind::kCreditLimit, 3, 0, fccl};
}

TEST(CbfcPeriod, IsTheTimeToSend65535BytesByDefault) {
  EXPECT_EQ(cbfc_default_period_ns(k10G), 52'428u);  // GFC §6.1.1: 52.4 µs
  EXPECT_EQ(cbfc_default_period_ns(40'000'000'000), 13'107u);
  EXPECT_EQ(cbfc_default_period_ns(100'000'000'000), 5'243u);  // 5242.8, rounded up
}

TEST(CbfcGate, HasNoCreditBeforeTheFirstLimit) {
  CbfcEgressGate gate;
  EXPECT_FALSE(gate.may_send(0, 64));
  EXPECT_EQ(gate.credit_blocks(), 0u);
}

TEST(CbfcGate, SendsOnlyWhileCreditsCoverTheWholePacket) {
  CbfcEgressGate gate;
  gate.on_message(credit(100));
  EXPECT_TRUE(gate.may_send(0, 100 * 64));
  EXPECT_FALSE(gate.may_send(0, 100 * 64 + 1));  // 101 blocks
  gate.on_dequeue(0, 60 * 64);
  EXPECT_EQ(gate.fctbs(), 60u);
  EXPECT_EQ(gate.credit_blocks(), 40u);
  EXPECT_TRUE(gate.may_send(0, 40 * 64));
  EXPECT_FALSE(gate.may_send(0, 40 * 64 + 1));
  gate.on_dequeue(0, 40 * 64);
  EXPECT_FALSE(gate.may_send(0, 1));
  gate.on_message(credit(101));
  EXPECT_TRUE(gate.may_send(0, 64));
}

// The per-burst question: how many head packets the credits cover, each after the ones before.
TEST(CbfcGate, BudgetIsThePrefixTheCreditsCoverAndCommitSpendsIt) {
  CbfcEgressGate gate;
  const uint32_t bytes[] = {60 * 64, 30 * 64, 10 * 64 + 1, 1};  // 60, 30, 11 and 1 blocks
  EXPECT_EQ(gate.budget(0, bytes, 4), 0u);                      // no FCCL yet
  gate.on_message(credit(100));
  EXPECT_EQ(gate.budget(0, bytes, 4), 2u);  // 60 + 30 = 90 ≤ 100; + 11 = 101 is not
  EXPECT_EQ(gate.budget(0, bytes, 4), 2u);  // asking spends nothing
  EXPECT_EQ(gate.credit_blocks(), 100u);
  gate.commit(0, bytes, 2);
  EXPECT_EQ(gate.fctbs(), 90u);
  EXPECT_EQ(gate.credit_blocks(), 10u);
  EXPECT_EQ(gate.budget(0, bytes + 2, 2), 0u);  // 11 blocks > 10: the head waits, and so does 1
  EXPECT_EQ(gate.budget(0, bytes + 3, 1), 1u);
}

TEST(CbfcGate, CountsAcrossTheWrap) {
  CbfcEgressGate gate(0xFFFF'FFF0);
  gate.on_message(credit(0x0000'0010));  // 32 blocks ahead, past the wrap
  EXPECT_EQ(gate.credit_blocks(), 32u);
  EXPECT_TRUE(gate.may_send(0, 32 * 64));
  EXPECT_FALSE(gate.may_send(0, 33 * 64));
  gate.on_dequeue(0, 20 * 64);
  EXPECT_EQ(gate.fctbs(), 0x0000'0004u);  // wrapped
  EXPECT_EQ(gate.credit_blocks(), 12u);
  EXPECT_TRUE(gate.may_send(0, 12 * 64));
  EXPECT_FALSE(gate.may_send(0, 13 * 64));
  // A limit behind FCTBS (an old frame) gives no credit rather than four billion.
  gate.on_message(credit(0xFFFF'FFF8));
  EXPECT_EQ(gate.credit_blocks(), 0u);
  EXPECT_FALSE(gate.may_send(0, 1));
}

class CbfcGeneratorTest : public ::testing::Test {
 protected:
  CbfcParams params = CbfcParams{}.resolved(LinkParams{k10G, 0, 1'000'000});
  CbfcEgressGate sender{7};
  CbfcFeedbackGenerator generator{params, EngineContext{LinkParams{k10G, 0, 1'000'000}, kNs, 3},
                                  sender};
};

TEST_F(CbfcGeneratorTest, AdvertisesAbrPlusWholeFreeBlocks) {
  // 1 MB = 15625 blocks.
  EXPECT_EQ(generator.credit_limit(IngressView{0, 0}), 15'625u);
  EXPECT_EQ(generator.credit_limit(IngressView{6'400, 100}), 100u + 15'525u);
  EXPECT_EQ(generator.credit_limit(IngressView{65, 2}), 2u + 15'623u);  // 999935 / 64, down
  EXPECT_EQ(generator.credit_limit(IngressView{2'000'000, 5}), 5u);     // over: no free block
  EXPECT_EQ(generator.credit_limit(IngressView{0, 0xFFFF'FF00}), 15'625u - 0x100u);  // wraps
}

TEST_F(CbfcGeneratorTest, SendsAtOnceThenEveryPeriodWithTheSendersFctbs) {
  FeedbackOut out;
  generator.poll(0, IngressView{0, 0}, out);
  EXPECT_EQ(out.credit_enable, 1u << 3);
  EXPECT_EQ(out.credit[3], (wire::CreditEntry{7, 15'625}));
  EXPECT_EQ(out.class_enable, 0);
  EXPECT_EQ(generator.next_action_ticks(), 52'428u);
  out.clear();
  // Between updates its input is not read: no occupancy or count of blocks is news to it.
  EXPECT_EQ(generator.quiet_band(), OccupancyBand::any_occupancy());
  generator.poll(52'427, IngressView{900'000, 12'345}, out);
  EXPECT_TRUE(out.empty());
  generator.poll(52'428, IngressView{0, 0}, out);
  EXPECT_FALSE(out.empty());
}

// One link, both ends, in 100 ns steps: a sender at 10 Gb/s into a 64 KB buffer drained at
// 5 Gb/s, 1 µs of propagation each way, counters starting 256 blocks before the wrap, and
// every 10th data packet lost on the wire. The buffer never overflows, the drain never
// starves for long, and the resynchronised ABR keeps lost packets from leaking credits.
TEST(CbfcLink, NeverOverflowsAndKeepsTheDrainBusyAcrossTheWrap) {
  constexpr uint64_t kBuffer = 64'000;
  constexpr uint32_t kPacket = 1000;   // 16 blocks
  constexpr uint64_t kDelay = 1000;    // ns
  constexpr uint64_t kSendTime = 800;  // 1000 B at 10 Gb/s
  constexpr uint64_t kDrainTime = 1600;
  constexpr uint32_t kStart = 0xFFFF'FF00;
  const LinkParams link{k10G, 2 * kDelay, kBuffer};
  CbfcParams params;
  params.period_ns = 2000;

  CbfcEgressGate sender_gate(kStart);  // sender port, data direction
  CbfcEgressGate receiver_gate(0);     // receiver port, reverse direction (unused)
  CbfcFeedbackGenerator sender_side(params, EngineContext{link, kNs, 3}, sender_gate);
  CbfcFeedbackGenerator receiver_side(params, EngineContext{link, kNs, 3}, receiver_gate);

  struct InFlight {
    uint64_t arrival;
    bool data;
    wire::CreditEntry entry;
  };
  std::deque<InFlight> to_receiver, to_sender;
  uint32_t abr = kStart;  // receiver's ABR: starts where the sender's FCTBS does
  uint64_t occupancy = 0, max_occupancy = 0, drained = 0, sent = 0, lost = 0;
  uint64_t sender_busy_until = 0, drain_busy_until = 0;

  for (uint64_t now = 0; now < 2'000'000; now += 100) {
    while (!to_receiver.empty() && to_receiver.front().arrival <= now) {
      const InFlight f = to_receiver.front();
      to_receiver.pop_front();
      if (f.data) {
        abr += wire::credit_blocks(kPacket);
        occupancy += kPacket;
        max_occupancy = std::max(max_occupancy, occupancy);
      } else {
        abr = f.entry.fctbs;  // IBA: ABR := FCTBS
      }
    }
    while (!to_sender.empty() && to_sender.front().arrival <= now) {
      sender_gate.on_message(credit(to_sender.front().entry.fccl, now));
      to_sender.pop_front();
    }
    if (occupancy >= kPacket && now >= drain_busy_until) {
      occupancy -= kPacket;
      drained += kPacket;
      drain_busy_until = now + kDrainTime;
    }
    FeedbackOut up, down;
    receiver_side.poll(now, IngressView{occupancy, abr}, up);
    if (up.credit_enable) to_sender.push_back({now + kDelay, false, up.credit[3]});
    sender_side.poll(now, IngressView{0, 0}, down);
    if (down.credit_enable) to_receiver.push_back({now + kDelay, false, down.credit[3]});
    if (now >= sender_busy_until && sender_gate.may_send(now, kPacket)) {
      sender_gate.on_dequeue(now, kPacket);
      sender_busy_until = now + kSendTime;
      if (++sent % 10 == 0) {
        ++lost;  // corrupted on the wire: counted in FCTBS, never reaches ABR
      } else {
        to_receiver.push_back({now + kDelay, true, {}});
      }
    }
  }
  EXPECT_LE(max_occupancy, kBuffer);
  EXPECT_GT(lost, 100u);  // 1600 blocks: more than the whole buffer, were they not resynchronised
  EXPECT_LT(sender_gate.fctbs(), kStart);  // the counters wrapped
  // 2 ms at 5 Gb/s is 1.25 MB; allow the start-up and the lost packets.
  EXPECT_GT(drained, 1'200'000u);
}

TEST(CbfcEngine, IsRegisteredAndCouplesItsHalves) {
  const EngineDescriptor* cbfc = EngineRegistry::instance().find("cbfc");
  ASSERT_NE(cbfc, nullptr);
  const LinkParams link{k10G, 0, 1'000'000};
  EngineInstance engine = cbfc->make(CbfcParams{}.resolved(link), EngineContext{link, kNs, 2});
  ASSERT_TRUE(engine.generator && engine.gate);
  engine.gate->on_message(credit(1000));
  engine.gate->on_dequeue(0, 640);
  FeedbackOut out;
  engine.generator->poll(0, IngressView{0, 0}, out);
  EXPECT_EQ(out.credit_enable, 1u << 2);
  EXPECT_EQ(out.credit[2].fctbs, 10u);
}

}  // namespace
}  // namespace fcswitch::fc

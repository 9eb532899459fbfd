// PFC with hand-made numbers: quanta at 10/40/100 Gb/s, both edges of XOFF and XON, refresh
// and expiry, the GFC testbed's thresholds (§6.1.1: 1 MB buffer, XOFF 800 KB, XON 797 KB).

#include <gtest/gtest.h>

#include <vector>

#include "fc/engine_registry.h"
#include "fc/pfc_engine.h"
#include "wire/pfc_frame.h"

namespace fcswitch::fc {
namespace {

constexpr uint64_t k10G = 10'000'000'000;
const TickRate kNs{};  // 1 tick = 1 ns

TEST(PfcQuanta, AreFiveHundredTwelveBitTimesAtThePortRate) {
  // 10 Gb/s: 51.2 ns a quantum; 40 Gb/s: 12.8 ns; 100 Gb/s: 5.12 ns.
  EXPECT_EQ(pfc_pause_ticks(0xFFFF, k10G, kNs), 3'355'392u);
  EXPECT_EQ(pfc_pause_ticks(0xFFFF, 40'000'000'000, kNs), 838'848u);
  EXPECT_EQ(pfc_pause_ticks(0xFFFF, 100'000'000'000, kNs), 335'540u);  // 335539.2, rounded up
  EXPECT_EQ(pfc_pause_ticks(1, k10G, kNs), 52u);                       // 51.2, rounded up
  EXPECT_EQ(pfc_pause_ticks(0, k10G, kNs), 0u);
  // A 2.4 GHz TSC: 3355392 ns × 2.4 = 8052940.8 ticks.
  EXPECT_EQ(pfc_pause_ticks(0xFFFF, k10G, TickRate{2'400'000'000}), 8'052'941u);
}

TEST(PfcQuanta, BytesInFlightAreRateTimesResponseTime) {
  // GFC testbed: 10 Gb/s × 90 µs = 112.5 KB.
  EXPECT_EQ(bytes_in_flight(LinkParams{k10G, 90'000, 1'000'000}), 112'500u);
}

class PfcGeneratorTest : public ::testing::Test {
 protected:
  static PfcParams testbed_params() {
    PfcParams p;
    p.xoff_bytes = 800'000;
    p.xon_bytes = 797'000;
    p.pause_quanta = 0xFFFF;
    p.refresh_quanta = 0x8000;
    return p;
  }
  FeedbackOut poll(uint64_t now, uint64_t occupancy) {
    FeedbackOut out;
    generator.poll(now, IngressView{occupancy, 0}, out);
    return out;
  }
  PfcParams params = testbed_params();
  EngineContext context{LinkParams{k10G, 90'000, 1'000'000}, kNs, 3};
  PfcFeedbackGenerator generator{params, context};
};

TEST_F(PfcGeneratorTest, PausesAtXoffNotOneByteBelow) {
  EXPECT_TRUE(poll(0, 799'999).empty());
  const FeedbackOut out = poll(10, 800'000);
  EXPECT_EQ(out.class_enable, 1u << 3);
  EXPECT_EQ(out.class_time[3], 0xFFFF);
  EXPECT_EQ(out.credit_enable, 0);
  EXPECT_TRUE(generator.xoff());
  EXPECT_EQ(generator.xoff_transitions(), 1u);
}

TEST_F(PfcGeneratorTest, ResumesWithTimeZeroBelowXonNotAtIt) {
  poll(0, 900'000);
  EXPECT_TRUE(poll(1, 797'000).empty());  // at XON: still paused
  const FeedbackOut out = poll(2, 796'999);
  EXPECT_EQ(out.class_enable, 1u << 3);
  EXPECT_EQ(out.class_time[3], 0);
  EXPECT_FALSE(generator.xoff());
  EXPECT_EQ(generator.xon_transitions(), 1u);
  // Between XON and XOFF, resumed stays resumed.
  EXPECT_TRUE(poll(3, 799'999).empty());
}

// The occupancies at which a poll does nothing, the polls a quiet TX task skips: below XOFF
// out of it, from XON up in it (its refreshes are timers). The bands' edges are the edges
// of XOFF and XON above.
TEST_F(PfcGeneratorTest, IsQuietBelowXoffAndThenFromXonUp) {
  EXPECT_EQ(generator.quiet_band(), (OccupancyBand{0, 800'000}));
  EXPECT_TRUE(poll(0, 799'999).empty());
  poll(1, 800'000);
  EXPECT_EQ(generator.quiet_band(), (OccupancyBand{797'000, OccupancyBand::kUnboundedBytes}));
  EXPECT_TRUE(generator.quiet_band().contains(797'000));
  EXPECT_TRUE(poll(2, 797'000).empty());
  EXPECT_FALSE(generator.quiet_band().contains(796'999));
  EXPECT_FALSE(poll(3, 796'999).empty());
  EXPECT_EQ(generator.quiet_band(), (OccupancyBand{0, 800'000}));
}

TEST_F(PfcGeneratorTest, RefreshesThePauseBeforeItRunsOut) {
  poll(1000, 850'000);
  const uint64_t refresh = pfc_pause_ticks(0x8000, k10G, kNs);  // 1677721.6 → 1677722
  EXPECT_EQ(refresh, 1'677'722u);
  EXPECT_EQ(generator.next_action_ticks(), 1000 + refresh);
  EXPECT_TRUE(poll(1000 + refresh - 1, 850'000).empty());
  const FeedbackOut out = poll(1000 + refresh, 798'000);  // still above XON: refresh
  EXPECT_EQ(out.class_time[3], 0xFFFF);
  EXPECT_EQ(generator.xoff_transitions(), 1u);
  EXPECT_EQ(generator.next_action_ticks(), 1000 + 2 * refresh);
  poll(1000 + refresh + 1, 0);  // XON stops the refreshes
  EXPECT_EQ(generator.next_action_ticks(), kNeverTicks);
}

// What was sent while the link was down is lost: the next poll says the state again.
TEST_F(PfcGeneratorTest, SaysItsStateAgainWhenTheLinkComesBack) {
  // Never paused: the upstream cannot be waiting for an XON.
  generator.link_restored();
  EXPECT_EQ(generator.next_action_ticks(), 0u);
  EXPECT_TRUE(poll(1, 0).empty());
  EXPECT_EQ(generator.next_action_ticks(), kNeverTicks);
  // Resumed after a pause: XON again, once.
  poll(2, 850'000);
  poll(3, 0);
  generator.link_restored();
  EXPECT_TRUE(generator.quiet_band().empty());  // its next poll says the state, whatever
  FeedbackOut out = poll(4, 0);
  EXPECT_EQ(out.class_enable, 1u << 3);
  EXPECT_EQ(out.class_time[3], 0);
  EXPECT_TRUE(poll(5, 0).empty());
  EXPECT_EQ(generator.xon_transitions(), 1u);
  // Paused: the pause at once, not at the refresh, and the refreshes count from it.
  poll(6, 850'000);
  generator.link_restored();
  out = poll(7, 850'000);
  EXPECT_EQ(out.class_time[3], 0xFFFF);
  EXPECT_EQ(generator.xoff_transitions(), 2u);
  EXPECT_EQ(generator.next_action_ticks(), 7 + pfc_pause_ticks(0x8000, k10G, kNs));
}

uint64_t generator_counter(const PfcFeedbackGenerator& generator, std::string_view name) {
  uint64_t value = UINT64_MAX;
  generator.counters([&](const CounterDescriptor& c, uint64_t v) {
    if (c.name == name) value = v;
  });
  return value;
}

// A refresh or XON that leaves pause − response_time or more after the last pause may land
// after the upstream's timer ran out: 3 355 392 − 90 000 = 3 265 392 ns here. On schedule (a
// refresh every 1 677 722 ns) none is late; a poll that comes 3.3 ms late (the switch's CPU
// taken away) is.
TEST_F(PfcGeneratorTest, CountsPauseFramesSentTooLateForTheLastPause) {
  poll(0, 800'000);                                           // XOFF
  EXPECT_EQ(poll(1'677'722, 800'000).class_time[3], 0xFFFF);  // refresh on time
  EXPECT_EQ(generator_counter(generator, "late_pause_frames"), 0u);
  EXPECT_EQ(generator_counter(generator, "longest_pause_gap_ns"), 1'677'722u);
  // The next refresh was due at 3 355 444; the poll comes at 4 943 114 = 1 677 722 + 3 265 392.
  EXPECT_EQ(poll(4'943'114, 800'000).class_time[3], 0xFFFF);
  EXPECT_EQ(generator_counter(generator, "late_pause_frames"), 1u);
  EXPECT_EQ(generator_counter(generator, "longest_pause_gap_ns"), 3'265'392u);
  // An XON one tick earlier than that after the last pause is in time.
  const FeedbackOut xon = poll(4'943'114 + 3'265'391, 700'000);
  EXPECT_EQ(xon.class_time[3], 0);
  EXPECT_EQ(generator_counter(generator, "late_pause_frames"), 1u);
}

// A pause that ran out with no poll between its end and the next frame let nothing through
// (TX was not there to send): counted, and counted apart.
TEST(PfcGate, TellsExpiriesNoPollSawFromThoseTxSaw) {
  PfcEgressGate gate(k10G, kNs);
  gate.on_message(ControlMessage{0, ControlKind::kClassTime, 3, wire::kPfcOpcode, 1});  // 52 ns
  gate.poll(60);  // TX polled after it ran out: it could send
  gate.on_message(ControlMessage{100, ControlKind::kClassTime, 3, wire::kPfcOpcode, 1});
  gate.poll(120);  // before the end at 152
  gate.on_message(ControlMessage{300, ControlKind::kClassTime, 3, wire::kPfcOpcode, 0xFFFF});
  EXPECT_EQ(gate.expiries(), 2u);
  EXPECT_EQ(gate.unseen_expiries(), 1u);
}

TEST(PfcGate, PausesForTheReceivedTimeFromArrival) {
  PfcEgressGate gate(k10G, kNs);
  EXPECT_TRUE(gate.may_send(0, 1500));
  gate.on_message(ControlMessage{1000, ControlKind::kClassTime, 3, wire::kPfcOpcode, 0xFFFF});
  EXPECT_FALSE(gate.may_send(1000, 64));
  EXPECT_FALSE(gate.may_send(1000 + 3'355'391, 64));
  EXPECT_TRUE(gate.may_send(1000 + 3'355'392, 64));
  EXPECT_EQ(gate.next_action_ticks(), 1000 + 3'355'392u);
  gate.poll(1000 + 3'355'392);
  EXPECT_EQ(gate.expiries(), 1u);
  EXPECT_EQ(gate.paused_ticks(), 3'355'392u);
  EXPECT_EQ(gate.next_action_ticks(), kNeverTicks);
}

TEST(PfcGate, TimeZeroResumesAtOnce) {
  PfcEgressGate gate(k10G, kNs);
  gate.on_message(ControlMessage{0, ControlKind::kClassTime, 3, wire::kPfcOpcode, 0xFFFF});
  gate.poll(5000);
  gate.on_message(ControlMessage{10'000, ControlKind::kClassTime, 3, wire::kPfcOpcode, 0});
  EXPECT_TRUE(gate.may_send(10'000, 64));
  gate.poll(20'000);
  EXPECT_EQ(gate.paused_ticks(), 10'000u);
  EXPECT_EQ(gate.pauses_received(), 1u);
  EXPECT_EQ(gate.resumes_received(), 1u);
  EXPECT_EQ(gate.expiries(), 0u);
}

TEST(PfcGate, ANewPauseReloadsTheTimer) {
  PfcEgressGate gate(k10G, kNs);
  gate.on_message(ControlMessage{0, ControlKind::kClassTime, 3, wire::kPfcOpcode, 0xFFFF});
  gate.on_message(
      ControlMessage{100, ControlKind::kClassTime, 3, wire::kPfcOpcode, 1});  // shorter: replaces
  EXPECT_FALSE(gate.may_send(151, 64));
  EXPECT_TRUE(gate.may_send(152, 64));
  gate.poll(1000);
  EXPECT_EQ(gate.paused_ticks(), 152u);  // one interval, not two
}

// The lab polls a quiet TX task only at an input or at its next action
// (TxTask::idle_until_input), so a gate polled rarely must count what one polled at every
// tick counts: paused time, and a pause that ran out before the next frame came (here at 52,
// with no poll until the XOFF at 1 100: that frame settles it).
TEST(PfcGate, CountsTheSameWhenPolledOnlyAtItsMessages) {
  const std::vector<ControlMessage> messages = {
      {0, ControlKind::kClassTime, 3, wire::kPfcOpcode, 1},         // 52 ticks, runs out
      {200, ControlKind::kClassTime, 3, wire::kPfcOpcode, 0xFFFF},  // XOFF
      {300, ControlKind::kClassTime, 3, wire::kPfcOpcode, 0xFFFF},  // its refresh
      {400, ControlKind::kClassTime, 3, wire::kPfcOpcode, 0},       // XON
      {1000, ControlKind::kClassTime, 3, wire::kPfcOpcode, 1},      // runs out at 1 052
      {1100, ControlKind::kClassTime, 3, wire::kPfcOpcode, 2},      // runs out at 1 203
  };
  PfcEgressGate every_tick(k10G, kNs), at_messages(k10G, kNs);
  size_t next = 0;
  for (uint64_t t = 0; t <= 2000; ++t) {
    for (; next < messages.size() && messages[next].rx_ticks == t; ++next) {
      every_tick.on_message(messages[next]);
      at_messages.on_message(messages[next]);
    }
    every_tick.poll(t);
  }
  at_messages.poll(2000);
  EXPECT_EQ(every_tick.paused_ticks(), 52u + 200 + 52 + 103);
  EXPECT_EQ(every_tick.expiries(), 3u);
  EXPECT_EQ(at_messages.paused_ticks(), every_tick.paused_ticks());
  EXPECT_EQ(at_messages.expiries(), every_tick.expiries());
}

TEST(PfcGate, IgnoresCreditMessages) {
  PfcEgressGate gate(k10G, kNs);
  gate.on_message(ControlMessage{0, ControlKind::kCreditLimit, 3, 0, 0xFFFF});
  EXPECT_TRUE(gate.may_send(1, 64));
}

TEST(PfcEngine, IsRegisteredAndBuildsBothHalves) {
  const EngineDescriptor* pfc = EngineRegistry::instance().find("pfc");
  ASSERT_NE(pfc, nullptr);
  PfcParams params;
  params.xoff_bytes = 800'000;
  params.xon_bytes = 797'000;
  EngineInstance engine =
      pfc->make(params, EngineContext{LinkParams{k10G, 90'000, 1'000'000}, kNs, 3});
  ASSERT_TRUE(engine.generator && engine.gate);
  FeedbackOut out;
  engine.generator->poll(0, IngressView{800'000, 0}, out);
  EXPECT_EQ(out.class_enable, 1u << 3);
}

TEST(PfcParams, DefaultsFollowTheHeadroom) {
  // B_m = 1 MB, C·τ = 112.5 KB: XOFF = 887.5 KB, XON three kilobytes lower.
  const PfcParams p = PfcParams{}.resolved(LinkParams{k10G, 90'000, 1'000'000});
  EXPECT_EQ(p.xoff_bytes, 887'500u);
  EXPECT_EQ(p.xon_bytes, 884'500u);
}

}  // namespace
}  // namespace fcswitch::fc

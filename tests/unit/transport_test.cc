// Host transports (issue 18): DCQCN's reaction point pinned to its equations (Zhu et al.,
// SIGCOMM'15) with hand-computed numbers, its notification point's CNP interval, and the window
// transport (go-back-N on a fixed RTO, Reno per RFC 5681, no retransmission as in PABO §VI)
// frame by frame, then end to end over a lossy channel.

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "transport/cnp_pacer.h"
#include "transport/dcqcn_reaction_point.h"
#include "transport/window_receiver.h"
#include "transport/window_sender.h"

namespace fcswitch::transport {
namespace {

constexpr uint64_t k10G = 10'000'000'000;
const TickRate kNs{kNsPerSecond};  // one tick per nanosecond: ticks read as ns

// ---------------------------------------------------------------- DCQCN reaction point

TEST(DcqcnReactionPoint, StartsAtLineRateWithNothingToTime) {
  const DcqcnReactionPoint rp(DcqcnParams{}, k10G, kNs);
  EXPECT_EQ(rp.rate_bps(), k10G);
  EXPECT_EQ(rp.target_rate_bps(), k10G);
  EXPECT_EQ(rp.alpha(), 1.0);
  EXPECT_EQ(rp.next_event_ticks(), kNeverTicks);
}

TEST(DcqcnReactionPoint, SendingBeforeAnyCnpChangesNothing) {
  DcqcnParams params;
  params.byte_counter_bytes = 1000;
  DcqcnReactionPoint rp(params, k10G, kNs);
  for (int i = 0; i < 100; ++i) rp.on_sent(i * 1000, 1500);
  rp.poll(1'000'000'000);
  EXPECT_EQ(rp.rate_bps(), k10G);
  EXPECT_EQ(rp.byte_stage(), 0u);
  EXPECT_EQ(rp.increase_events(), 0u);
  EXPECT_EQ(rp.next_event_ticks(), kNeverTicks);
}

// α = 1 stays 1 under α ← (1 − g)α + g; each CNP halves R_C and sets R_T to the rate before.
TEST(DcqcnReactionPoint, CutsWithAlphaOne) {
  DcqcnReactionPoint rp(DcqcnParams{}, k10G, kNs);
  rp.on_cnp(1000);
  EXPECT_EQ(rp.rate_bps(), 5'000'000'000u);
  EXPECT_EQ(rp.target_rate_bps(), k10G);
  EXPECT_EQ(rp.alpha(), 1.0);
  rp.on_cnp(2000);
  EXPECT_EQ(rp.rate_bps(), 2'500'000'000u);
  EXPECT_EQ(rp.target_rate_bps(), 5'000'000'000u);
  rp.on_cnp(3000);
  EXPECT_EQ(rp.rate_bps(), 1'250'000'000u);
  EXPECT_EQ(rp.target_rate_bps(), 2'500'000'000u);
  EXPECT_EQ(rp.alpha(), 1.0);
  EXPECT_EQ(rp.cnps(), 3u);
}

// GFC Fig. 20's α₀ = 0.5, g = 1/256. The cut uses α before the CNP's update:
//   CNP 1: R_C = 10e9·(1 − 1/4) = 7.5e9;                 α = 255/256·1/2 + 1/256 = 257/512
//   CNP 2: R_C = ⌊7.5e9·(1 − 257/1024)⌋ = ⌊5617675781.25⌋;  α = 66047/131072
//   CNP 3: R_C = ⌊5617675781·(1 − 66047/262144)⌋ = 4202306242; α = 16973057/33554432
TEST(DcqcnReactionPoint, CutsWithAlphaOneHalf) {
  DcqcnParams params;
  params.initial_alpha = 0.5;
  DcqcnReactionPoint rp(params, k10G, kNs);
  rp.on_cnp(1000);
  EXPECT_EQ(rp.rate_bps(), 7'500'000'000u);
  EXPECT_EQ(rp.target_rate_bps(), k10G);
  EXPECT_EQ(rp.alpha(), 257.0 / 512);
  rp.on_cnp(2000);
  EXPECT_EQ(rp.rate_bps(), 5'617'675'781u);
  EXPECT_EQ(rp.target_rate_bps(), 7'500'000'000u);
  EXPECT_EQ(rp.alpha(), 66047.0 / 131072);
  rp.on_cnp(3000);
  EXPECT_EQ(rp.rate_bps(), 4'202'306'242u);
  EXPECT_EQ(rp.target_rate_bps(), 5'617'675'781u);
  EXPECT_EQ(rp.alpha(), 16973057.0 / 33554432);
}

// Without a CNP, α ← (1 − g)α once per K, from the last CNP; the next cut uses the decayed α.
// The increase timer is pushed out of the way (T = 1 s).
TEST(DcqcnReactionPoint, AlphaDecaysOncePerKWithoutCnp) {
  DcqcnParams params;
  params.increase_timer_ns = 1'000'000'000;
  DcqcnReactionPoint rp(params, k10G, kNs);
  const uint64_t t0 = 7000;
  const uint64_t k = 55'000;
  rp.on_cnp(t0);
  EXPECT_EQ(rp.next_event_ticks(), t0 + k);
  rp.poll(t0 + k - 1);
  EXPECT_EQ(rp.alpha(), 1.0);
  rp.poll(t0 + k);
  EXPECT_EQ(rp.alpha(), 255.0 / 256);
  EXPECT_EQ(rp.next_event_ticks(), t0 + 2 * k);
  rp.poll(t0 + 5 * k + k / 2);  // four more periods at once, in order
  double alpha = 1.0;
  for (int i = 0; i < 5; ++i) alpha *= 1.0 - 1.0 / 256;
  EXPECT_EQ(rp.alpha(), alpha);
  EXPECT_EQ(rp.next_event_ticks(), t0 + 6 * k);

  // A CNP restarts the α timer K after itself, and cuts with the decayed α: 5e9·(1 − α/2).
  DcqcnReactionPoint two(params, k10G, kNs);
  two.on_cnp(0);
  two.poll(2 * k);
  EXPECT_EQ(two.alpha(), 65025.0 / 65536);  // (255/256)²
  two.on_cnp(2 * k + 100);
  EXPECT_EQ(two.rate_bps(), 2'519'493'103u);  // ⌊5e9·66047/131072⌋
  EXPECT_EQ(two.alpha(), 16646911.0 / 16777216);
  EXPECT_EQ(two.next_event_ticks(), 3 * k + 100);
}

// Ticks are not ns: K = 55 µs and T = 100 µs at 2.5 GHz are 137 500 and 250 000 ticks. The
// two timers run side by side, each by whole periods from the CNP.
TEST(DcqcnReactionPoint, TimerEventsEveryTAndNextEventTicks) {
  DcqcnParams params;
  params.increase_timer_ns = 100'000;
  DcqcnReactionPoint rp(params, k10G, TickRate{2'500'000'000});
  const uint64_t t0 = 1'000'000;
  rp.on_cnp(t0);  // R_C 5e9, R_T 10e9
  EXPECT_EQ(rp.next_event_ticks(), t0 + 137'500);
  rp.poll(t0 + 137'500);  // α only
  EXPECT_EQ(rp.timer_stage(), 0u);
  EXPECT_EQ(rp.rate_bps(), 5'000'000'000u);
  EXPECT_EQ(rp.next_event_ticks(), t0 + 250'000);
  rp.poll(t0 + 249'999);
  EXPECT_EQ(rp.timer_stage(), 0u);
  rp.poll(t0 + 250'000);  // the first increase event: fast recovery
  EXPECT_EQ(rp.timer_stage(), 1u);
  EXPECT_EQ(rp.rate_bps(), 7'500'000'000u);
  EXPECT_EQ(rp.next_event_ticks(), t0 + 275'000);  // α's second
  rp.poll(t0 + 500'000);                           // α at 275 000 and 412 500, T at 500 000
  EXPECT_EQ(rp.timer_stage(), 2u);
  EXPECT_EQ(rp.rate_bps(), 8'750'000'000u);
  EXPECT_EQ(rp.alpha(), (255.0 / 256) * (255.0 / 256) * (255.0 / 256));
  EXPECT_EQ(rp.next_event_ticks(), t0 + 550'000);
  // A CNP restarts both: the next increase T after it, not on the old schedule.
  rp.on_cnp(t0 + 600'000);
  EXPECT_EQ(rp.timer_stage(), 0u);
  EXPECT_EQ(rp.next_event_ticks(), t0 + 737'500);
  rp.poll(t0 + 750'000 - 1);
  EXPECT_EQ(rp.increase_events(), 2u);
  rp.poll(t0 + 850'000);
  EXPECT_EQ(rp.increase_events(), 3u);
}

// Two CNPs at α = 1 leave R_T = 5e9, R_C = 2.5e9. Fast recovery: five timer events, each
// halving the gap to R_T (2.5e9 → 1.25e9 → … → 78.125e6) with R_T fixed. Then the timer
// stage is F = 5 and the byte stage 0: additive, R_T += 40 Mb/s and R_C = ⌈(R_T + R_C)/2⌉.
TEST(DcqcnReactionPoint, FastRecoveryThenAdditiveIncrease) {
  DcqcnReactionPoint rp(DcqcnParams{}, k10G, kNs);
  rp.on_cnp(0);
  rp.on_cnp(1);
  const uint64_t t = 55'000;
  const uint64_t fast[] = {3'750'000'000, 4'375'000'000, 4'687'500'000, 4'843'750'000,
                           4'921'875'000};
  for (uint64_t i = 0; i < 5; ++i) {
    rp.poll(1 + (i + 1) * t);
    EXPECT_EQ(rp.rate_bps(), fast[i]) << i;
    EXPECT_EQ(rp.target_rate_bps(), 5'000'000'000u) << i;
    EXPECT_EQ(rp.timer_stage(), i + 1);
  }
  rp.poll(1 + 6 * t);
  EXPECT_EQ(rp.target_rate_bps(), 5'040'000'000u);
  EXPECT_EQ(rp.rate_bps(), 4'980'937'500u);  // (5.04e9 + 4.921875e9)/2
  rp.poll(1 + 7 * t);
  EXPECT_EQ(rp.target_rate_bps(), 5'080'000'000u);
  EXPECT_EQ(rp.rate_bps(), 5'030'468'750u);
  // Timer events alone never reach hyper increase: it needs the byte stage past F too.
  rp.poll(1 + 20 * t);
  EXPECT_EQ(rp.target_rate_bps(), 5'000'000'000u + 15 * 40'000'000u);
  EXPECT_EQ(rp.byte_stage(), 0u);
}

// Hyper increase once both stages are at F: the i-th step adds i·R_HAI, i = min(T, BC) − F + 1.
// From R_T = 5e9, R_C = 2.5e9: five timer events (fast recovery), five byte events (additive:
// the timer stage is at F, the byte stage below), then events alternate as listed, each row
// worked from R_C = ⌈(R_T + R_C)/2⌉ after the R_T step.
TEST(DcqcnReactionPoint, HyperIncreaseGrowsWithTheSmallerStage) {
  DcqcnParams params;
  params.byte_counter_bytes = 1000;
  DcqcnReactionPoint rp(params, k10G, kNs);
  rp.on_cnp(0);
  rp.on_cnp(1);
  const uint64_t t = 55'000;
  uint64_t timer_events = 5;
  uint64_t now = 1 + timer_events * t;
  rp.poll(now);
  ASSERT_EQ(rp.rate_bps(), 4'921'875'000u);
  struct Step {
    char event;  // 't' the timer, 'b' 1000 bytes sent
    uint32_t timer_stage, byte_stage;
    uint64_t target_bps, rate_bps;
  };
  const Step steps[] = {
      {'b', 5, 1, 5'040'000'000, 4'980'937'500},  // additive
      {'b', 5, 2, 5'080'000'000, 5'030'468'750},  {'b', 5, 3, 5'120'000'000, 5'075'234'375},
      {'b', 5, 4, 5'160'000'000, 5'117'617'188},   // ⌈5117617187.5⌉
      {'b', 5, 5, 5'200'000'000, 5'158'808'594},   // the last additive (byte stage was 4)
      {'b', 5, 6, 5'600'000'000, 5'379'404'297},   // hyper, i = 1: + 400 Mb/s
      {'t', 6, 6, 6'000'000'000, 5'689'702'149},   // i = min(5, 6) − 5 + 1 = 1
      {'b', 6, 7, 6'800'000'000, 6'244'851'075},   // i = 2: + 800 Mb/s
      {'t', 7, 7, 7'600'000'000, 6'922'425'538},   // i = 2
      {'b', 7, 8, 8'800'000'000, 7'861'212'769},   // i = 3
      {'b', 7, 9, 10'000'000'000, 8'930'606'385},  // i = 3: R_T reaches line rate
      {'t', 8, 9, 10'000'000'000, 9'465'303'193},  // i = 4: capped at line rate
  };
  for (const Step& s : steps) {
    if (s.event == 't') {
      now = 1 + ++timer_events * t;
      rp.poll(now);
    } else {
      now += 10;  // byte events come between two timer events
      rp.on_sent(now, 1000);
    }
    EXPECT_EQ(rp.timer_stage(), s.timer_stage);
    EXPECT_EQ(rp.byte_stage(), s.byte_stage);
    EXPECT_EQ(rp.target_rate_bps(), s.target_bps) << s.timer_stage << "/" << s.byte_stage;
    EXPECT_EQ(rp.rate_bps(), s.rate_bps) << s.timer_stage << "/" << s.byte_stage;
  }
}

// One increase event per B bytes, remainders carried, and nothing counted before the first CNP
// or carried over a CNP.
TEST(DcqcnReactionPoint, ByteCounterEventEveryBBytes) {
  DcqcnParams params;
  params.byte_counter_bytes = 4500;
  params.increase_timer_ns = 1'000'000'000;  // the timer out of the way
  DcqcnReactionPoint rp(params, k10G, kNs);
  rp.on_sent(0, 4000);  // before any CNP: not counted
  rp.on_cnp(10);        // R_C 5e9, R_T 10e9
  rp.on_sent(20, 1500);
  rp.on_sent(30, 1500);
  EXPECT_EQ(rp.byte_stage(), 0u);
  EXPECT_EQ(rp.rate_bps(), 5'000'000'000u);
  rp.on_sent(40, 1500);  // 4500: one event
  EXPECT_EQ(rp.byte_stage(), 1u);
  EXPECT_EQ(rp.rate_bps(), 7'500'000'000u);
  rp.on_sent(50, 4000);
  EXPECT_EQ(rp.byte_stage(), 1u);
  rp.on_sent(60, 1000);  // 5000: one event, 500 carried
  EXPECT_EQ(rp.byte_stage(), 2u);
  rp.on_sent(70, 4000);  // 4500 with the carry
  EXPECT_EQ(rp.byte_stage(), 3u);
  rp.on_sent(80, 9000);  // two at once
  EXPECT_EQ(rp.byte_stage(), 5u);
  EXPECT_EQ(rp.timer_stage(), 0u);
  // A CNP resets the count: 4000 before it and 1000 after make no event.
  rp.on_sent(90, 4000);
  rp.on_cnp(100);
  EXPECT_EQ(rp.byte_stage(), 0u);
  rp.on_sent(110, 1000);
  EXPECT_EQ(rp.byte_stage(), 0u);
}

// on_sent lets timers due by now act first: the fifth timer event (fast recovery) comes before
// the byte event, which then sees the timer stage at F and is additive. The other order would
// have left R_T alone.
TEST(DcqcnReactionPoint, DueTimersActBeforeTheByteEvent) {
  DcqcnParams params;
  params.byte_counter_bytes = 1000;
  DcqcnReactionPoint rp(params, k10G, kNs);
  rp.on_cnp(0);
  rp.on_cnp(1);  // R_T 5e9, R_C 2.5e9
  const uint64_t t = 55'000;
  rp.poll(1 + 4 * t);
  ASSERT_EQ(rp.timer_stage(), 4u);
  rp.on_sent(1 + 5 * t, 1000);
  EXPECT_EQ(rp.timer_stage(), 5u);
  EXPECT_EQ(rp.byte_stage(), 1u);
  EXPECT_EQ(rp.target_rate_bps(), 5'040'000'000u);
  EXPECT_EQ(rp.rate_bps(), 4'980'937'500u);
}

// R_C never below the floor: at α = 1 from 10 Gb/s the tenth cut would give 9.765625 Mb/s.
TEST(DcqcnReactionPoint, MinRateFloor) {
  DcqcnReactionPoint rp(DcqcnParams{}, k10G, kNs);
  for (int i = 0; i < 9; ++i) rp.on_cnp(i);
  EXPECT_EQ(rp.rate_bps(), 19'531'250u);
  rp.on_cnp(9);
  EXPECT_EQ(rp.rate_bps(), 10'000'000u);
  EXPECT_EQ(rp.target_rate_bps(), 19'531'250u);
  rp.on_cnp(10);
  EXPECT_EQ(rp.rate_bps(), 10'000'000u);
  EXPECT_EQ(rp.target_rate_bps(), 10'000'000u);
}

// From one cut at α = 1 (R_C 5e9, R_T 10e9): five fast-recovery events leave a gap of 156.25
// Mb/s; additive steps cannot lift R_T past line rate, so the gap keeps halving (rounded down)
// and closes after 28 more events. Then the increase timer stops and only α's runs.
TEST(DcqcnReactionPoint, LineRateCapThenTheIncreaseTimerStops) {
  DcqcnReactionPoint rp(DcqcnParams{}, k10G, kNs);
  rp.on_cnp(0);
  const uint64_t t = 55'000;
  rp.poll(5 * t);
  EXPECT_EQ(rp.rate_bps(), 9'843'750'000u);
  rp.poll(6 * t);
  EXPECT_EQ(rp.target_rate_bps(), k10G);  // 10e9 + 40e6, capped
  EXPECT_EQ(rp.rate_bps(), 9'921'875'000u);
  rp.poll(32 * t);
  EXPECT_EQ(rp.rate_bps(), k10G - 1);
  rp.poll(33 * t);
  EXPECT_EQ(rp.rate_bps(), k10G);
  EXPECT_EQ(rp.timer_stage(), 33u);
  // At line rate: nothing left to increase. α keeps decaying each K (K = T here).
  EXPECT_EQ(rp.next_event_ticks(), 34 * t);
  rp.poll(1'000'000'000);
  EXPECT_EQ(rp.timer_stage(), 33u);
  EXPECT_EQ(rp.rate_bps(), k10G);
  EXPECT_EQ(rp.target_rate_bps(), k10G);
  EXPECT_EQ(rp.next_event_ticks(), (1'000'000'000 / t + 1) * t);
  // Bytes sent at line rate make no increase event either.
  rp.on_sent(1'000'000'000, 20'000'000);
  EXPECT_EQ(rp.byte_stage(), 0u);
  // 18 181 periods have taken α to about 1e-31: a CNP now cuts by nothing and so leaves
  // nothing to recover (only α's timer restarts). The next one cuts with α = g: R_C =
  // 10e9·(1 − 1/512), and the increase timer runs again.
  rp.on_cnp(1'000'000'001);
  EXPECT_EQ(rp.rate_bps(), k10G);
  EXPECT_EQ(rp.alpha(), 1.0 / 256);
  EXPECT_EQ(rp.next_event_ticks(), 1'000'000'001 + t);
  rp.on_cnp(1'000'000'002);
  EXPECT_EQ(rp.rate_bps(), 9'980'468'750u);
  rp.poll(1'000'000'002 + t);
  EXPECT_EQ(rp.timer_stage(), 1u);
  EXPECT_EQ(rp.rate_bps(), 9'990'234'375u);
}

// ---------------------------------------------------------------- DCQCN notification point

TEST(CnpPacer, AtMostOneCnpPerInterval) {
  CnpPacer np(50'000, kNs);  // N = 50 µs
  const uint64_t t = 3'000;
  EXPECT_TRUE(np.on_ce(t));
  EXPECT_FALSE(np.on_ce(t + 25'000));
  EXPECT_FALSE(np.on_ce(t + 49'999));
  EXPECT_TRUE(np.on_ce(t + 50'000));
  EXPECT_FALSE(np.on_ce(t + 99'999));
  EXPECT_TRUE(np.on_ce(t + 250'000));  // long after: at once
  EXPECT_EQ(np.sent(), 3u);
  EXPECT_EQ(np.suppressed(), 3u);
}

TEST(CnpPacer, FirstCeAtTimeZeroSendsAndTicksAreConverted) {
  CnpPacer np(50'000, TickRate{2'000'000'000});  // N = 100 000 ticks
  EXPECT_TRUE(np.on_ce(0));
  EXPECT_FALSE(np.on_ce(99'999));
  EXPECT_TRUE(np.on_ce(100'000));
  EXPECT_EQ(np.sent(), 2u);
}

// ---------------------------------------------------------------- window sender

constexpr uint32_t kFrameBytes = 1000;
constexpr uint64_t kRtoTicks = 1'000'000;  // rto_ns = 1 ms at one tick per ns

WindowParams window_of(uint64_t frames) {
  WindowParams params;
  params.window_bytes = frames * kFrameBytes;
  params.rto_ns = kRtoTicks;
  return params;
}

// Sends every frame the sender allows now; returns their sequences.
std::vector<uint64_t> send_all(WindowSender& sender, uint64_t now) {
  std::vector<uint64_t> sent;
  while (sender.can_send()) {
    sent.push_back(sender.next_sequence());
    sender.on_sent(now, sent.back());
  }
  return sent;
}

std::vector<uint64_t> range(uint64_t first, uint64_t count) {
  std::vector<uint64_t> r;
  for (uint64_t i = 0; i < count; ++i) r.push_back(first + i);
  return r;
}

TEST(WindowSender, SendsTheWindowThenWaitsForAcks) {
  WindowParams params = window_of(10);
  params.window_bytes += 999;  // 10 999 bytes: still 10 whole frames
  WindowSender sender(params, kFrameBytes, 0, kNs);
  EXPECT_EQ(send_all(sender, 0), range(0, 10));
  EXPECT_FALSE(sender.can_send());
  EXPECT_EQ(sender.in_flight_packets(), 10u);
  EXPECT_EQ(sender.cwnd_bytes(), 10'000u);
  sender.on_ack(100, 3);  // three frames acked: three more may go
  EXPECT_EQ(sender.acked(), 3u);
  EXPECT_EQ(send_all(sender, 100), range(10, 3));
  sender.on_ack(200, 3);  // a duplicate opens nothing
  EXPECT_FALSE(sender.can_send());
  sender.on_ack(300, 2);  // an old ACK neither
  EXPECT_FALSE(sender.can_send());
  EXPECT_EQ(sender.acked(), 3u);
  EXPECT_EQ(sender.retransmissions(), 0u);
}

// The RTO starts with the first frame (RFC 6298 §5.1), restarts on an ACK of new data (§5.3)
// and fires exactly rto after that; the sender goes back to the oldest unacked and, with no
// ACK moving, sends the whole window again.
TEST(WindowSender, RtoGoesBackToTheOldestUnacked) {
  WindowSender sender(window_of(10), kFrameBytes, 0, kNs);
  EXPECT_EQ(sender.next_event_ticks(), kNeverTicks);
  send_all(sender, 5'000);
  EXPECT_EQ(sender.next_event_ticks(), 5'000 + kRtoTicks);
  sender.on_ack(20'000, 2);  // frames 0, 1 arrive; frame 2 is lost
  EXPECT_EQ(sender.next_event_ticks(), 20'000 + kRtoTicks);
  send_all(sender, 20'000);                                  // 10, 11: the timer runs on
  for (int i = 0; i < 9; ++i) sender.on_ack(21'000 + i, 2);  // 3..11 make duplicate ACKs only
  sender.poll(20'000 + kRtoTicks - 1);
  EXPECT_EQ(sender.timeouts(), 0u);
  EXPECT_FALSE(sender.can_send());
  sender.poll(20'000 + kRtoTicks);
  EXPECT_EQ(sender.timeouts(), 1u);
  EXPECT_EQ(sender.in_flight_packets(), 0u);
  EXPECT_EQ(sender.next_event_ticks(), kNeverTicks);  // until the resend
  EXPECT_EQ(sender.next_sequence(), 2u);
  const uint64_t resend_at = 20'000 + kRtoTicks + 7;
  EXPECT_EQ(send_all(sender, resend_at), range(2, 10));  // go-back-N: 2..11 again
  EXPECT_EQ(sender.retransmissions(), 10u);
  EXPECT_EQ(sender.next_event_ticks(), resend_at + kRtoTicks);
  EXPECT_EQ(sender.fast_retransmits(), 0u);  // not Reno: duplicates never resend
}

// After an RTO the receiver's cumulative ACK jumps over what it kept: only the hole is resent.
TEST(WindowSender, GoBackNSkipsWhatTheCumulativeAckCovers) {
  WindowSender sender(window_of(10), kFrameBytes, 0, kNs);
  send_all(sender, 0);
  sender.poll(kRtoTicks);
  ASSERT_EQ(sender.next_sequence(), 0u);
  sender.on_sent(kRtoTicks, 0);       // the caller paces: one frame goes before the ACK
  sender.on_ack(kRtoTicks + 10, 10);  // frame 0 filled the hole; 1..9 had arrived
  EXPECT_EQ(sender.acked(), 10u);
  EXPECT_EQ(sender.next_event_ticks(), kNeverTicks);  // nothing outstanding (§5.2)
  EXPECT_EQ(sender.next_sequence(), 10u);
  EXPECT_EQ(sender.retransmissions(), 1u);  // 0 was sent twice, 1..9 once
}

WindowParams reno_window(uint64_t frames) {
  WindowParams params = window_of(frames);
  params.reno = true;
  return params;
}

// Acks every frame in flight, one ACK each, in order.
void ack_each(WindowSender& sender, uint64_t now) {
  const uint64_t until = sender.acked() + sender.in_flight_packets();
  for (uint64_t a = sender.acked() + 1; a <= until; ++a) sender.on_ack(now, a);
}

// `rounds` whole rounds of sending everything allowed and acking each frame: from IW = 1 in
// slow start, 2^rounds − 1 frames acked, cwnd 2^rounds, nothing in flight.
void run_rounds(WindowSender& sender, uint64_t rounds) {
  for (uint64_t round = 0; round < rounds; ++round) {
    send_all(sender, round * 100);
    ack_each(sender, round * 100 + 50);
  }
}

// Slow start (RFC 5681 §3.1): from IW = 1, cwnd += 1 per ACK of new data, so a round whose
// every frame is acked doubles it: 1, 2, 4, 8, 16 frames per round.
TEST(WindowSenderReno, SlowStartDoublesPerRound) {
  WindowSender sender(reno_window(1000), kFrameBytes, 0, kNs);
  uint64_t first = 0;
  for (uint64_t round = 0; round < 5; ++round) {
    const uint64_t frames = uint64_t{1} << round;
    EXPECT_EQ(sender.cwnd_packets(), frames);
    EXPECT_EQ(send_all(sender, round * 100), range(first, frames)) << round;
    ack_each(sender, round * 100 + 50);
    first += frames;
  }
  EXPECT_EQ(sender.cwnd_packets(), 32u);
  EXPECT_EQ(sender.cwnd_bytes(), 32'000u);
}

// Congestion avoidance (RFC 5681 §3.1, RFC 3465 §2.1): at cwnd ≥ ssthresh, +1 frame per cwnd
// of frames acked — one per round.
TEST(WindowSenderReno, CongestionAvoidanceAddsOneFramePerRound) {
  WindowParams params = reno_window(1000);
  params.initial_ssthresh_packets = 4;
  WindowSender sender(params, kFrameBytes, 0, kNs);
  const uint64_t expected[] = {1, 2, 4, 5, 6, 7};  // cwnd at the start of each round
  for (uint64_t round = 0; round < 6; ++round) {
    EXPECT_EQ(sender.cwnd_packets(), expected[round]) << round;
    EXPECT_EQ(send_all(sender, round * 100).size(), expected[round]);
    ack_each(sender, round * 100 + 50);
  }
  EXPECT_EQ(sender.cwnd_packets(), 8u);
}

// Slow start to 16 frames in flight (0..14 acked, 15..30 out); 15 is lost. The third duplicate
// ACK: ssthresh = 16/2 = 8, frame 15 resent once, cwnd = 8 + 3 = 11; each further duplicate
// +1 (RFC 5681 §3.2). Twelve more make cwnd 23 with 16 in flight: 7 new frames may go. The
// ACK of new data (31: the receiver kept 16..30) ends recovery with cwnd = ssthresh = 8.
TEST(WindowSenderReno, ThreeDuplicateAcksFastRetransmitAndHalve) {
  WindowSender sender(reno_window(1000), kFrameBytes, 0, kNs);
  run_rounds(sender, 4);
  ASSERT_EQ(send_all(sender, 400), range(15, 16));
  ASSERT_EQ(sender.in_flight_packets(), 16u);
  sender.on_ack(450, 15);
  sender.on_ack(451, 15);
  EXPECT_EQ(sender.fast_retransmits(), 0u);
  EXPECT_FALSE(sender.can_send());
  sender.on_ack(452, 15);
  EXPECT_EQ(sender.fast_retransmits(), 1u);
  EXPECT_EQ(sender.ssthresh_packets(), 8u);
  EXPECT_EQ(sender.cwnd_packets(), 11u);
  EXPECT_TRUE(sender.in_fast_recovery());
  ASSERT_TRUE(sender.can_send());
  EXPECT_EQ(sender.next_sequence(), 15u);
  sender.on_sent(453, 15);
  EXPECT_EQ(sender.retransmissions(), 1u);
  EXPECT_FALSE(sender.can_send());  // 16 in flight, cwnd 11
  for (int i = 0; i < 12; ++i) sender.on_ack(460 + i, 15);
  EXPECT_EQ(sender.cwnd_packets(), 23u);
  EXPECT_EQ(sender.fast_retransmits(), 1u);  // once per recovery
  EXPECT_EQ(send_all(sender, 480), range(31, 7));
  sender.on_ack(500, 31);
  EXPECT_FALSE(sender.in_fast_recovery());
  EXPECT_EQ(sender.cwnd_packets(), 8u);
  EXPECT_EQ(sender.in_flight_packets(), 7u);  // 31..37
  EXPECT_EQ(send_all(sender, 510), range(38, 1));
  EXPECT_EQ(sender.retransmissions(), 1u);
  EXPECT_EQ(sender.timeouts(), 0u);
}

// An RTO under Reno: ssthresh = max(FlightSize/2, 2) = 4 from 8 in flight, cwnd = 1 (RFC 5681
// §3.1): one frame goes, the oldest unacked; then slow start again up to ssthresh.
TEST(WindowSenderReno, RtoCollapsesCwndToOne) {
  WindowSender sender(reno_window(1000), kFrameBytes, 0, kNs);
  run_rounds(sender, 3);
  ASSERT_EQ(send_all(sender, 300), range(7, 8));
  sender.poll(300 + kRtoTicks);
  EXPECT_EQ(sender.timeouts(), 1u);
  EXPECT_EQ(sender.cwnd_packets(), 1u);
  EXPECT_EQ(sender.ssthresh_packets(), 4u);
  EXPECT_EQ(send_all(sender, 300 + kRtoTicks), range(7, 1));
  sender.on_ack(400 + kRtoTicks, 8);
  EXPECT_EQ(sender.cwnd_packets(), 2u);
  EXPECT_EQ(send_all(sender, 400 + kRtoTicks), range(8, 2));
}

// PABO §VI: no RTO, no fast retransmit, nothing ever resent or reduced; the window slides.
TEST(WindowSender, NoRetransmissionEver) {
  WindowParams params = window_of(10);
  params.retransmit = false;
  WindowSender sender(params, kFrameBytes, 0, kNs);
  EXPECT_EQ(send_all(sender, 0), range(0, 10));
  EXPECT_EQ(sender.next_event_ticks(), kNeverTicks);
  for (int i = 0; i < 9; ++i) sender.on_ack(100 + i, 0);  // frame 0 lost: duplicates only
  sender.poll(100 * kRtoTicks);
  EXPECT_FALSE(sender.can_send());
  EXPECT_EQ(sender.timeouts(), 0u);
  sender.on_ack(200 * kRtoTicks, 4);
  EXPECT_EQ(send_all(sender, 200 * kRtoTicks), range(10, 4));
  EXPECT_EQ(sender.retransmissions(), 0u);
  EXPECT_EQ(sender.fast_retransmits(), 0u);

  // Under Reno it still grows by slow start, and duplicates do not halve it.
  params.reno = true;
  params.window_bytes = 1000 * kFrameBytes;
  WindowSender reno(params, kFrameBytes, 0, kNs);
  send_all(reno, 0);
  reno.on_ack(10, 1);
  EXPECT_EQ(reno.cwnd_packets(), 2u);
  send_all(reno, 10);
  for (int i = 0; i < 5; ++i) reno.on_ack(20 + i, 1);
  EXPECT_EQ(reno.cwnd_packets(), 2u);
  EXPECT_FALSE(reno.can_send());
  EXPECT_EQ(reno.fast_retransmits(), 0u);
}

TEST(WindowSender, LimitedFlowCompletes) {
  WindowSender sender(window_of(10), kFrameBytes, 5, kNs);
  EXPECT_EQ(send_all(sender, 0), range(0, 5));
  EXPECT_FALSE(sender.complete());
  sender.on_ack(10, 4);
  EXPECT_FALSE(sender.can_send());
  EXPECT_FALSE(sender.complete());
  sender.on_ack(20, 5);
  EXPECT_TRUE(sender.complete());
  EXPECT_EQ(sender.next_event_ticks(), kNeverTicks);
  EXPECT_FALSE(sender.can_send());
}

// ---------------------------------------------------------------- window receiver

TEST(WindowReceiver, InOrderAdvancesTheCumulativeAck) {
  WindowReceiver receiver(8);
  for (uint64_t s = 0; s < 20; ++s) {
    const auto arrival = receiver.on_data(s);
    EXPECT_TRUE(arrival.fresh);
    EXPECT_EQ(arrival.cumulative, s + 1);
  }
  EXPECT_EQ(receiver.duplicates(), 0u);
}

TEST(WindowReceiver, OutOfOrderFramesAreKeptUntilTheHoleFills) {
  WindowReceiver receiver(8);
  receiver.on_data(0);
  auto a = receiver.on_data(2);
  EXPECT_TRUE(a.fresh);
  EXPECT_EQ(a.cumulative, 1u);
  a = receiver.on_data(3);
  EXPECT_EQ(a.cumulative, 1u);
  a = receiver.on_data(5);
  EXPECT_EQ(a.cumulative, 1u);
  a = receiver.on_data(1);  // fills 1: jumps over 2, 3 and stops at the hole at 4
  EXPECT_TRUE(a.fresh);
  EXPECT_EQ(a.cumulative, 4u);
  a = receiver.on_data(4);
  EXPECT_EQ(a.cumulative, 6u);
  EXPECT_EQ(receiver.out_of_order(), 3u);
}

TEST(WindowReceiver, DuplicatesAndFramesBeyondTheWindow) {
  WindowReceiver receiver(4);
  receiver.on_data(0);
  auto a = receiver.on_data(0);  // below the cumulative ACK
  EXPECT_FALSE(a.fresh);
  EXPECT_EQ(a.cumulative, 1u);
  receiver.on_data(3);
  a = receiver.on_data(3);  // held already
  EXPECT_FALSE(a.fresh);
  EXPECT_EQ(receiver.duplicates(), 2u);
  a = receiver.on_data(5);  // window [1, 5): 5 is past it
  EXPECT_FALSE(a.fresh);
  EXPECT_EQ(a.cumulative, 1u);
  EXPECT_EQ(receiver.beyond_window(), 1u);
  a = receiver.on_data(4);  // the window's last
  EXPECT_TRUE(a.fresh);
  receiver.on_data(1);
  a = receiver.on_data(2);
  EXPECT_EQ(a.cumulative, 5u);
  EXPECT_TRUE(receiver.on_data(5).fresh);  // inside now
}

// Blocks of 100 frames, each delivered backwards: nothing moves until a block's first frame,
// then the ACK jumps by 100. Thousands of frames wrap the 128-bit map many times.
TEST(WindowReceiver, ReversedBlocksJumpAcrossTheWholeWindow) {
  WindowReceiver receiver(100);
  for (uint64_t block = 0; block < 50; ++block) {
    for (uint64_t i = 100; i-- > 1;) {
      const auto a = receiver.on_data(block * 100 + i);
      ASSERT_TRUE(a.fresh);
      ASSERT_EQ(a.cumulative, block * 100);
    }
    const auto a = receiver.on_data(block * 100);
    ASSERT_EQ(a.cumulative, (block + 1) * 100);
  }
  EXPECT_EQ(receiver.duplicates(), 0u);
  EXPECT_EQ(receiver.beyond_window(), 0u);
}

// ---------------------------------------------------------------- end to end

// A sender and a receiver over a channel that loses every 7th data frame (retransmissions
// included) and delays frames and ACKs by 10 µs, one frame sent per µs: every frame arrives,
// exactly once as fresh, and the flow completes — with plain go-back-N and with Reno.
void deliver_over_lossy_channel(bool reno) {
  constexpr uint64_t kFrames = 2000;
  constexpr uint64_t kDelay = 10'000;
  WindowParams params = window_of(32);
  params.reno = reno;
  params.rto_ns = 200'000;
  WindowSender sender(params, kFrameBytes, kFrames, kNs);
  WindowReceiver receiver(32);
  struct InFlight {
    uint64_t arrive_ticks, value;
  };
  std::deque<InFlight> data, acks;
  uint64_t transmissions = 0, fresh = 0;
  uint64_t now = 0;
  for (; !sender.complete() && now < 10'000'000'000; now += 1'000) {
    sender.poll(now);
    while (!acks.empty() && acks.front().arrive_ticks <= now) {
      sender.on_ack(now, acks.front().value);
      acks.pop_front();
    }
    while (!data.empty() && data.front().arrive_ticks <= now) {
      const auto arrival = receiver.on_data(data.front().value);
      fresh += arrival.fresh;
      acks.push_back({now + kDelay, arrival.cumulative});
      data.pop_front();
    }
    if (sender.can_send()) {
      const uint64_t seq = sender.next_sequence();
      sender.on_sent(now, seq);
      if (++transmissions % 7 != 0) data.push_back({now + kDelay, seq});
    }
  }
  EXPECT_TRUE(sender.complete());
  EXPECT_EQ(receiver.cumulative(), kFrames);
  EXPECT_EQ(fresh, kFrames);
  EXPECT_GT(sender.retransmissions(), 0u);
  EXPECT_EQ(transmissions, kFrames + sender.retransmissions());
  if (reno) {
    EXPECT_GT(sender.fast_retransmits(), 0u);
  }
}

TEST(WindowTransport, DeliversEveryFrameOverALossyChannel) {
  deliver_over_lossy_channel(false);
}

TEST(WindowTransport, RenoDeliversEveryFrameOverALossyChannel) {
  deliver_over_lossy_channel(true);
}

}  // namespace
}  // namespace fcswitch::transport

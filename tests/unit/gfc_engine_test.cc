// The two GFC engines on the slot: stage messages only on a change of stage, the sender's
// rate from the stage table or the linear map, the credit limit kept under gfc-time, and
// the configuration checks with the testbed's settings (GFC §6.1.1).

#include <gtest/gtest.h>

#include "config/config_error.h"
#include "config/switch_config.h"
#include "fc/cbfc_engine.h"
#include "fc/gfc_buffer_engine.h"
#include "fc/gfc_time_engine.h"
#include "wire/credit_frame.h"
#include "wire/pfc_frame.h"

namespace fcswitch::fc {
namespace {

constexpr uint64_t k10G = 10'000'000'000;
// 1 MB buffer, τ = 90 µs; room (1+c)·F = 3036 below B_m (c = 1, F = 1518): B_2 = 873482 (the
// paper's 875000), B_19 = 996964 (the paper's 1000000).
const LinkParams kTestbedLink{k10G, 90'000, 1'000'000};

EngineContext context(uint16_t stage_opcode = wire::kPfcOpcode) {
  EngineContext c;
  c.link = kTestbedLink;
  c.priority = 3;
  c.stage_opcode = stage_opcode;
  return c;  // ticks are ns
}

ControlMessage stage_message(uint32_t stage, uint16_t opcode = wire::kPfcOpcode) {
  return ControlMessage{0, ControlKind::kClassTime, 3, opcode, stage};
}

// The stage a poll at `occupancy` sends, or -1 for none.
int stage_sent(GfcBufferFeedbackGenerator& generator, uint64_t occupancy) {
  FeedbackOut out;
  generator.poll(0, IngressView{occupancy, 0}, out);
  EXPECT_EQ(out.class_enable, 0);  // stages go in their own entry, never as a pause
  return out.stage_enable ? static_cast<int>(out.stage[3]) : -1;
}

TEST(GfcBufferGenerator, SendsTheStageOnlyWhenItChanges) {
  const GfcStageTable table(kTestbedLink, 750'000);
  GfcBufferFeedbackGenerator generator(table, context());
  auto poll = [&](uint64_t occupancy) { return stage_sent(generator, occupancy); };
  EXPECT_EQ(poll(0), -1);
  EXPECT_EQ(poll(749'999), -1);
  EXPECT_EQ(poll(750'000), 1);
  EXPECT_EQ(poll(800'000), -1);  // still stage 1
  EXPECT_EQ(poll(900'000), 2);
  EXPECT_EQ(poll(980'000), 4);  // a jump sends the stage reached, not each one between
  EXPECT_EQ(poll(873'481), 1);  // and down: B_2 − 1 (the paper's B_2 = 875000)
  EXPECT_EQ(poll(10), 0);
  EXPECT_EQ(generator.next_action_ticks(), kNeverTicks);
  uint64_t messages = 0, max_stage = 0;
  generator.counters([&](const CounterDescriptor& counter, uint64_t v) {
    if (counter.name == "stage_messages_sent") messages = v;
    if (counter.name == "ingress_stage_max") max_stage = v;
  });
  EXPECT_EQ(messages, 5u);
  EXPECT_EQ(max_stage, 4u);
}

// The occupancies at which a poll sends nothing, the polls a quiet TX task skips: the stage's
// own range [B_k, B_(k+1)) (GFC §4.2), from 0 at stage 0 and unbounded at stage N. At each
// edge, the poll that leaves the band sends the stage it reached.
TEST(GfcBufferGenerator, IsQuietWithinItsStage) {
  const GfcStageTable table(kTestbedLink, 750'000);
  GfcBufferFeedbackGenerator generator(table, context());
  auto poll = [&](uint64_t occupancy) { return stage_sent(generator, occupancy); };
  EXPECT_EQ(generator.quiet_band(), (OccupancyBand{0, 750'000}));
  for (int k = 1; k <= table.stages(); ++k) {
    const uint64_t low = table.threshold_bytes(k);
    ASSERT_EQ(poll(low), k);
    const OccupancyBand band = generator.quiet_band();
    EXPECT_EQ(band.low_bytes, low) << "stage " << k;
    if (k == table.stages()) {
      EXPECT_EQ(band.high_bytes, OccupancyBand::kUnboundedBytes);
      EXPECT_EQ(poll(kTestbedLink.buffer_bytes * 2), -1);
    } else {
      EXPECT_EQ(band.high_bytes, table.threshold_bytes(k + 1)) << "stage " << k;
      EXPECT_EQ(poll(band.high_bytes - 1), -1) << "stage " << k;
    }
    EXPECT_EQ(poll(low - 1), k - 1) << "stage " << k;
    EXPECT_EQ(poll(low), k);
  }
  // A link that came back: its next poll says the stage, whatever the occupancy.
  generator.link_restored();
  EXPECT_TRUE(generator.quiet_band().empty());
}

// A stage sent while the link was down is lost: when it comes back the stage is said once
// more, even if it holds (stage 0 too: the upstream may still be at the old one), then only
// on change again.
TEST(GfcBufferGenerator, SaysItsStageAgainWhenTheLinkComesBack) {
  const GfcStageTable table(kTestbedLink, 750'000);
  GfcBufferFeedbackGenerator generator(table, context());
  auto poll = [&](uint64_t occupancy) { return stage_sent(generator, occupancy); };
  EXPECT_EQ(poll(900'000), 2);
  EXPECT_EQ(poll(10), 0);  // into the cut link
  generator.link_restored();
  EXPECT_EQ(generator.next_action_ticks(), 0u);  // a poll is due now
  EXPECT_EQ(poll(10), 0);
  EXPECT_EQ(poll(10), -1);
  EXPECT_EQ(generator.next_action_ticks(), kNeverTicks);
  generator.link_restored();
  EXPECT_EQ(poll(900'000), 2);
  EXPECT_EQ(poll(900'000), -1);
}

TEST(GfcBufferGate, StageKSetsTheRateToCOver2ToTheK) {
  const GfcStageTable table(kTestbedLink, 750'000);
  GfcBufferEgressGate gate(table, context());
  EXPECT_EQ(gate.rate_bps(), k10G);
  EXPECT_TRUE(gate.may_send(0, 1500));
  gate.on_dequeue(0, 1226);             // 10000 bits on the wire
  EXPECT_TRUE(gate.may_send(0, 1226));  // stage 0: no wait
  EXPECT_EQ(gate.next_action_ticks(), kNeverTicks);

  gate.on_message(stage_message(2));
  EXPECT_EQ(gate.rate_bps(), 2'500'000'000u);
  // The last packet's gap at the new rate: 10000 bits / 2.5 Gb/s = 4 µs from its start.
  EXPECT_FALSE(gate.may_send(3999, 1226));
  EXPECT_TRUE(gate.may_send(4000, 1226));
  EXPECT_EQ(gate.next_action_ticks(), 4000u);

  gate.on_message(stage_message(60));  // beyond N = 19: the slowest stage
  EXPECT_EQ(gate.stage(), 19);
  EXPECT_EQ(gate.rate_bps(), k10G >> 19);
  gate.on_message(stage_message(0));
  EXPECT_EQ(gate.rate_bps(), k10G);
}

TEST(GfcBufferGate, IgnoresFramesOfAnotherOpcode) {
  const GfcStageTable table(kTestbedLink, 750'000);
  GfcBufferEgressGate gate(table, context(0x0102));
  gate.on_message(stage_message(3, wire::kPfcOpcode));  // a PFC pause is not a stage
  EXPECT_EQ(gate.rate_bps(), k10G);
  gate.on_message(stage_message(3, 0x0102));
  EXPECT_EQ(gate.rate_bps(), k10G >> 3);
  uint64_t foreign = 0;
  gate.counters([&](const CounterDescriptor& counter, uint64_t v) {
    if (counter.name == "foreign_messages") foreign = v;
  });
  EXPECT_EQ(foreign, 1u);
}

ControlMessage credit_message(uint32_t fccl) {
  return ControlMessage{0, ControlKind::kCreditLimit, 3, 0, fccl};
}

TEST(GfcTimeGate, RateIsLinearInTheRemainingBufferAndCreditsStillHold) {
  // B_m = 1 MB, B_0 = 492 KB: line rate while FCCL − FCTBS ≥ 508 KB, half at 254 KB.
  const GfcLinearMap map(kTestbedLink, 52'400, 492'000);
  GfcTimeEgressGate gate(map, context());
  EXPECT_FALSE(gate.may_send(0, 64));       // CBFC: no credit before the first FCCL
  gate.on_message(credit_message(10'000));  // 640 KB free
  EXPECT_EQ(gate.rate_bps(), k10G);
  EXPECT_TRUE(gate.may_send(0, 1500));
  gate.on_message(credit_message(254'000 / 64 + 1));  // 3969 blocks = 254016 bytes
  EXPECT_EQ(gate.rate_bps(), k10G * 254'016 / 508'000);
  gate.on_dequeue(0, 1226);  // 20 blocks sent: FCTBS 20
  EXPECT_EQ(gate.fctbs(), 20u);
  EXPECT_FALSE(gate.may_send(1000, 1226));  // the limiter: 10000 bits at ~5 Gb/s ≈ 2 µs
  EXPECT_TRUE(gate.may_send(2000, 1226));
  // The rate holds until the next update, computed from FCCL − FCTBS then.
  gate.on_message(credit_message(20 + 127));  // 127 blocks = 8128 bytes left
  EXPECT_EQ(gate.rate_bps(), k10G * 8128 / 508'000);
  gate.on_message(credit_message(20));  // nothing left: rate 0, and no credit either
  EXPECT_EQ(gate.rate_bps(), 0u);
  EXPECT_FALSE(gate.may_send(1'000'000'000, 64));
}

// Both hold per packet: the budget is the shorter of the limiter's prefix and the credits'.
TEST(GfcTimeGate, BudgetIsTheShorterOfLimiterAndCredits) {
  const GfcLinearMap map(kTestbedLink, 52'400, 492'000);
  GfcTimeEgressGate gate(map, context());
  const uint32_t bytes[] = {1226, 1226, 1226};  // 20 blocks each
  gate.on_message(credit_message(10'000));      // line rate: the limiter allows all three
  EXPECT_EQ(gate.budget(0, bytes, 3), 3u);
  gate.on_message(credit_message(50));  // 50 blocks: two packets' credits, and half rate or less
  ASSERT_LT(gate.rate_bps(), k10G);
  EXPECT_EQ(gate.budget(0, bytes, 3), 1u);  // the limiter: one now, the next after its gap
  gate.commit(0, bytes, 1);
  EXPECT_EQ(gate.budget(0, bytes, 3), 0u);
  EXPECT_EQ(gate.budget(1'000'000, bytes, 3), 1u);  // later: the limiter opens, 30 blocks left
  gate.commit(1'000'000, bytes, 1);
  EXPECT_EQ(gate.budget(2'000'000, bytes, 3), 0u);  // 10 blocks left: credits hold it
}

TEST(GfcTimeGate, ItsFctbsRidesInTheCbfcGeneratorsFrames) {
  const GfcLinearMap map(kTestbedLink, 52'400, 492'000);
  GfcTimeEgressGate gate(map, context());
  CbfcParams cbfc;
  cbfc.period_ns = 52'400;
  CbfcFeedbackGenerator generator(cbfc, context(), gate);
  gate.on_message(credit_message(1000));
  gate.on_dequeue(0, 1000);  // 16 blocks
  FeedbackOut out;
  generator.poll(0, IngressView{0, 0}, out);
  EXPECT_EQ(out.credit[3].fctbs, 16u);
}

// --- configuration ---

// The port takes config/testbed-82599.toml's TX burst of 8: c = 9 frames committed past its
// gate, room (1+c)·F = 15180 below B_m, B_1 ≤ 1000000 − 225000 − 15180 = 759820, which holds the
// paper's B_1 = 750 KB (its bound B_m − 2Cτ = 775 KB).
config::SwitchConfig parse(const std::string& flow_control,
                           const std::string& port = "tx_burst = 8\n") {
  return config::parse_switch_config(R"(
[switch]
lossless_priorities = [3]
[buffer]
lossless_ingress = "1MB"
[flow_control]
response_time = "90us"
)" + flow_control + R"(
[[ports]]
name = "p0"
device = "net_null0"
)" + port,
                                     "gfc.toml");
}

TEST(GfcConfig, TheTestbedSettingsAreAccepted) {
  const auto buffer = parse("engine = \"gfc-buffer\"\ngfc-buffer = { b1 = \"750KB\" }\n");
  const auto& chosen = buffer.ports[0].flow_control.priorities[3];
  ASSERT_NE(chosen.engine, nullptr);
  EXPECT_EQ(chosen.engine->name, "gfc-buffer");
  EXPECT_EQ(static_cast<const GfcBufferParams&>(*chosen.params).b1_bytes, 750'000u);
  EXPECT_TRUE(buffer.warnings.empty());

  const auto time =
      parse("engine = \"gfc-time\"\ngfc-time = { period = \"52.4us\", b0 = \"492KB\" }\n");
  const auto& p =
      static_cast<const GfcTimeParams&>(*time.ports[0].flow_control.priorities[3].params);
  EXPECT_EQ(p.period_ns, 52'400u);
  EXPECT_EQ(p.b0_bytes, 492'000u);
}

TEST(GfcConfig, DefaultsAreTheLargestTheTheoremsAllow) {
  const auto buffer = parse("engine = \"gfc-buffer\"\n");
  EXPECT_EQ(static_cast<const GfcBufferParams&>(*buffer.ports[0].flow_control.priorities[3].params)
                .b1_bytes,
            759'820u);  // B_m − 2Cτ − (1+c)·F (the paper's B_m − 2Cτ: 775000)
  const auto time = parse("engine = \"gfc-time\"\n");
  const auto& p =
      static_cast<const GfcTimeParams&>(*time.ports[0].flow_control.priorities[3].params);
  EXPECT_EQ(p.period_ns, 52'428u);  // 65535 bytes at 10 Gb/s
  EXPECT_EQ(p.b0_bytes, 1'000'000 - gfc_time_bound_bytes(kTestbedLink, 52'428));
}

TEST(GfcConfig, BreakingATheoremIsRefusedUnlessAllowedThenWarned) {
  try {
    parse("engine = \"gfc-buffer\"\ngfc-buffer = { b1 = \"800KB\" }\n");
    FAIL() << "B_1 above B_m − 2Cτ − room accepted";
  } catch (const config::ConfigError& error) {
    ASSERT_EQ(error.problems().size(), 1u);
    EXPECT_EQ(error.problems()[0],
              "gfc.toml:9:21: flow_control.gfc-buffer.b1: expected B_1 ≤ B_m − 2Cτ − (1+c)·F = "
              "1000000 − 225000 − 15180 = 759820 bytes (τ = 90000 ns, C = 10000 Mb/s; room for a "
              "frame of F = 1518 bytes and c = 9 committed past TX's gate) on port \"p0\" "
              "priority 3, found B_1 = 800000 bytes");
  }
  // The paper's B_1 on a port with the default TX burst of 32 (c = 33): 51612 bytes of room.
  try {
    parse("engine = \"gfc-buffer\"\ngfc-buffer = { b1 = \"750KB\" }\n", "");
    FAIL() << "B_1 above B_m − 2Cτ − room accepted";
  } catch (const config::ConfigError& error) {
    ASSERT_EQ(error.problems().size(), 1u);
    EXPECT_NE(error.problems()[0].find("B_1 ≤ B_m − 2Cτ − (1+c)·F = 1000000 − 225000 − 51612 = "
                                       "723388 bytes"),
              std::string::npos)
        << error.problems()[0];
  }
  const auto allowed = parse(
      "engine = \"gfc-time\"\n"
      "gfc-time = { b0 = \"700KB\", allow_theorem_violation = true }\n");
  ASSERT_EQ(allowed.warnings.size(), 1u);
  EXPECT_NE(allowed.warnings[0].find("flow_control.gfc-time.b0: expected B_0 ≤ B_m − "
                                     "(√(τ/T)+1)²·C·T = 1000000 − 349764 = 650236 bytes"),
            std::string::npos)
      << allowed.warnings[0];
  EXPECT_NE(allowed.warnings[0].find("(accepted: the file allows it)"), std::string::npos);
}

}  // namespace
}  // namespace fcswitch::fc

// Flow control on the datapath: two hosts at line rate into one 10 Gb/s output, the lossless
// priority 3 under PFC or CBFC, in virtual time on ring ports (ring_testbed.h). The hosts obey
// the switch's feedback with the same engines; the sink drains at line rate.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "config/switch_config.h"
#include "core/units.h"
#include "fc/cbfc_engine.h"
#include "fc/pfc_engine.h"
#include "ring_testbed.h"
#include "test_constants.h"

namespace fcswitch::testbed {
namespace {

using test_constants::kSinkMac;
constexpr uint64_t kHostMac[2] = {0x02'00'00'00'00'01ull, 0x02'00'00'00'00'02ull};
constexpr uint64_t kStepNs = 100;
constexpr uint64_t kRunNs = 5'000'000;  // 5 ms: many XOFF/XON rounds and credit periods
using test_constants::kFrameBytes;
constexpr uint8_t kLosslessDscp = 24;  // class selector 3 → priority 3
constexpr uint8_t kLossyDscp = 0;
constexpr uint64_t kBufferBytes = 200'000;

std::string switch_toml(const RingTestbed& bed, const std::string& name,
                        const std::string& flow_control, const std::string& sink_extra = "") {
  return fmt::format(R"(
[switch]
name = "{0}"
lossless_priorities = [3]
mbufs = 2047
egress_queue_packets = 2048
[buffer]
lossless_ingress = {1}
lossy_pool = "300KB"
{2}
[[ports]]
name = "h0"
device = "{3}"
[[ports]]
name = "h1"
device = "{4}"
[[ports]]
name = "sink"
device = "{5}"
{6}
[[fib]]
mac = "02:00:00:00:00:0b"
port = "sink"
)",
                     name, kBufferBytes, flow_control, bed.device(0), bed.device(1), bed.device(2),
                     sink_extra);
}

// PFC on the switch, its XOFF 50 KB below the 200 KB buffer (C·τ is 2.5 KB).
constexpr const char* kPfcTable = R"(
[flow_control]
engine = "pfc"
response_time = "2us"
pfc = { xoff = "150KB", xon = "147KB" }
)";

const fc::LinkParams kHostLink{10'000'000'000, 1000, kBufferBytes};

// A host's CBFC engine: its gate obeys the switch's FCCL, its generator carries its FCTBS.
fc::EngineInstance cbfc_host_engine() {
  auto gate = std::make_unique<fc::CbfcEgressGate>();
  auto generator = std::make_unique<fc::CbfcFeedbackGenerator>(
      fc::CbfcParams{}.resolved(kHostLink), fc::EngineContext{kHostLink, TickRate{}, 3}, *gate);
  return fc::EngineInstance{std::move(generator), std::move(gate)};
}

struct Totals {
  uint64_t lossless_sent = 0, lossy_sent = 0, lossless_at_sink = 0, lossy_at_sink = 0;
  uint64_t pauses = 0, resumes = 0, credit_frames = 0;
};

// Both hosts send priority-3 and priority-0 frames alternately at 10 Gb/s to the sink.
Totals run_overload(RingTestbed& bed, const std::string& toml, const std::string& engine) {
  bed.start(config::parse_switch_config(toml, "test.toml"));
  const fc::LinkParams link{10'000'000'000, 1000, kBufferBytes};
  for (int h = 0; h < 2; ++h) {
    LinkEnd& host = bed.end(h);
    traffic::FrameSpec spec{kSinkMac, kHostMac[h],   {}, traffic::FrameSpec::L3::kIpv4,
                            0x88B6,   kLosslessDscp, 0,  kFrameBytes};
    host.add_stream(Stream{spec, true});
    spec.dscp = kLossyDscp;
    host.add_stream(Stream{spec, false});
    if (engine == "pfc") {
      host.set_engine(fc::EngineInstance{nullptr, std::make_unique<fc::PfcEgressGate>(link.rate_bps,
                                                                                      TickRate{})},
                      3);
    } else if (engine == "cbfc") {
      host.set_engine(cbfc_host_engine(), 3);
    }
  }
  bed.end(2).drain_at(10'000'000'000);
  uint64_t now = 0;
  for (; now < kRunNs; now += kStepNs) bed.step(now);
  bed.settle(now, kStepNs);

  Totals t;
  for (int h = 0; h < 2; ++h) {
    t.lossless_sent += bed.end(h).sent(3);
    t.lossy_sent += bed.end(h).sent(0);
    t.pauses += bed.end(h).pauses_received();
    t.resumes += bed.end(h).resumes_received();
    t.credit_frames += bed.end(h).credit_frames_received();
  }
  t.lossless_at_sink = bed.end(2).received(3);
  t.lossy_at_sink = bed.end(2).received(0);
  fmt::print("{}: lossless {}/{} delivered, lossy {}/{}, pauses {} resumes {} credit frames {}\n",
             engine, t.lossless_at_sink, t.lossless_sent, t.lossy_at_sink, t.lossy_sent, t.pauses,
             t.resumes, t.credit_frames);
  return t;
}

// The switch from `toml`, and host 0 sending priority-3 frames to the sink at line rate.
void start_with_one_lossless_host(RingTestbed& bed, const std::string& toml) {
  bed.start(config::parse_switch_config(toml, "test.toml"));
  traffic::FrameSpec spec{kSinkMac, kHostMac[0],   {}, traffic::FrameSpec::L3::kIpv4,
                          0x88B6,   kLosslessDscp, 0,  kFrameBytes};
  bed.end(0).add_stream(Stream{spec, true});
}

uint64_t drops(SwitchNode& node, DropReason reason) {
  uint64_t sum = 0;
  for (int p = 0; p < node.ports(); ++p) sum += node.drops(p, reason);
  return sum;
}

TEST(FlowControlDatapath, WithoutFlowControlTheLosslessClassOverflows) {
  RingTestbed bed("fcnone", 3, 64);
  const Totals t = run_overload(bed, switch_toml(bed, "none", ""), "none");
  // The control experiment: what PFC and CBFC must prevent does happen without them.
  EXPECT_GT(drops(bed.node(), DropReason::kLosslessOverflow), 0u);
  EXPECT_LT(t.lossless_at_sink, t.lossless_sent);
  EXPECT_EQ(t.pauses, 0u);
}

TEST(FlowControlDatapath, PfcPausesTheHostsAndLosesNoLosslessPacket) {
  RingTestbed bed("fcpfc", 3, 64);
  const Totals t = run_overload(bed, switch_toml(bed, "pfc", kPfcTable), "pfc");
  SwitchNode& node = bed.node();
  EXPECT_EQ(drops(node, DropReason::kLosslessOverflow), 0u);
  EXPECT_EQ(t.lossless_at_sink, t.lossless_sent);  // every lossless frame arrived
  EXPECT_GT(t.pauses, 10u);                        // XOFF, refreshed or repeated
  EXPECT_GT(t.resumes, 10u);                       // XON as time 0
  // Lossy frames were never paused: they kept flowing (some dropped by the buffer).
  EXPECT_GT(t.lossy_at_sink, t.lossy_sent / 4);
  EXPECT_EQ(t.lossy_at_sink + drops(node, DropReason::kLossyBufferFull), t.lossy_sent);
  // The switch's own counters agree with what the hosts saw.
  uint64_t sent_by_switch = 0, xoff = 0;
  for (int h = 0; h < 2; ++h) {
    sent_by_switch += node.tx(h).pause_frames_sent(3);
    node.tx(h).engine_counters(3, [&](const fc::CounterDescriptor& counter, uint64_t v) {
      if (counter.name == "xoff_transitions") xoff += v;
    });
  }
  EXPECT_EQ(sent_by_switch, t.pauses);
  EXPECT_GT(xoff, 0u);
  // The lossless share of the 10 Gb/s output over the run is about half of it.
  EXPECT_GT(t.lossless_at_sink * kFrameBytes * 8, kRunNs * 10 / 4);
  bed.stop();
  EXPECT_EQ(bed.host_mbufs_in_use(), 0u);
}

TEST(FlowControlDatapath, CbfcCreditsHoldTheHostsAndLoseNoLosslessPacket) {
  RingTestbed bed("fccbfc", 3, 64);
  // The sink sends no credits: its port runs without flow control.
  const Totals t = run_overload(bed,
                                switch_toml(bed, "cbfc", R"(
[flow_control]
engine = "cbfc"
)",
                                            "[ports.flow_control]\nengine = \"none\""),
                                "cbfc");
  SwitchNode& node = bed.node();
  EXPECT_EQ(drops(node, DropReason::kLosslessOverflow), 0u);
  EXPECT_EQ(t.lossless_at_sink, t.lossless_sent);
  EXPECT_GT(t.credit_frames, 2 * kRunNs / 52'428 - 4);  // one per 52.4 µs period per host
  EXPECT_EQ(t.pauses, 0u);
  EXPECT_GT(t.lossy_at_sink, t.lossy_sent / 4);
  // The hosts' FCTBS came back in their credit frames and reset ABR: consumed by FWD.
  EXPECT_GT(node.rx_control_frames(0), 50u);
  EXPECT_GT(t.lossless_at_sink * kFrameBytes * 8, kRunNs * 10 / 4);
  bed.stop();
  EXPECT_EQ(bed.host_mbufs_in_use(), 0u);
}

// Frames lost on the wire leave ABR behind the host's FCTBS; the FCTBS in the host's credit
// frames, applied by FWD in order with the data, brings it back: once all is idle, the switch
// advertises FCCL = FCTBS + the whole buffer (200000 / 64 = 3125 blocks), lost blocks included.
TEST(FlowControlDatapath, CbfcResynchronisesAbrAfterFramesLostOnTheWire) {
  RingTestbed bed("fcsync", 3, 64);
  start_with_one_lossless_host(bed, switch_toml(bed, "sync", "[flow_control]\nengine = \"cbfc\"",
                                                "[ports.flow_control]\nengine = \"none\""));
  fc::EngineInstance engine = cbfc_host_engine();
  const auto& host_gate = static_cast<const fc::CbfcEgressGate&>(*engine.gate);
  bed.end(0).set_engine(std::move(engine), 3);
  bed.end(0).lose_every(20);
  bed.end(2).drain_at(10'000'000'000);
  uint64_t now = 0;
  for (; now < 2'000'000; now += kStepNs) bed.step(now);
  now = bed.settle(now, kStepNs);
  // Two more credit periods each way, so that the last word on both sides is an idle one.
  for (const uint64_t end = now + 3 * 52'428; now < end; now += kStepNs) bed.step(now);
  EXPECT_GT(bed.end(0).lost(), 50u);
  EXPECT_EQ(bed.end(2).received(3), bed.end(0).sent(3));
  EXPECT_EQ(bed.end(0).last_credit_limit(), host_gate.fctbs() + kBufferBytes / 64);
}

// A neighbour that pauses forever (a PFC storm) holds the sink port's lossless queue; the
// watchdog reports it, and with action "drop" empties the queue instead of holding the buffer.
TEST(FlowControlDatapath, WatchdogReportsAndDropsAPfcStorm) {
  RingTestbed bed("fcwd", 3, 64);
  const std::string toml =
      switch_toml(bed, "wd",
                  std::string(kPfcTable) +
                      "watchdog = { detect = \"1ms\", restore = \"1ms\", action = \"drop\" }\n");
  start_with_one_lossless_host(bed, toml);
  bed.end(0).set_engine(
      fc::EngineInstance{nullptr, std::make_unique<fc::PfcEgressGate>(10'000'000'000, TickRate{})},
      3);
  bed.end(2).storm(3, 0xFFFF, 100'000);
  uint64_t now = 0;
  for (; now < kRunNs; now += kStepNs) bed.step(now);
  SwitchNode& node = bed.node();
  EXPECT_EQ(node.tx(2).watchdog_storms(3), 1u);
  EXPECT_GT(drops(node, DropReason::kWatchdogDrop), 0u);
  EXPECT_EQ(bed.end(2).received(3), 0u);  // nothing got past the pause
  EXPECT_GT(node.tx(2).blocked_ns(3), 900'000u);
  EXPECT_EQ(drops(node, DropReason::kLosslessOverflow), 0u);
}

// A switch that stops receiving (shutdown: SwitchNode::stop_rx) still reads its ports for
// flow-control frames while TX drains: a downstream that holds the lossless queue paused, and
// refreshes the pause, gets nothing however long the drain lasts. An RX that stopped reading
// let the last pause run out (3.4 ms at 10 Gb/s) and sent the queue into a downstream whose
// buffer was full: running switches lost lossless frames at every shutdown.
TEST(FlowControlDatapath, AStoppedSwitchStillObeysPausesWhileItDrains) {
  RingTestbed bed("fcstop", 3, 64);
  start_with_one_lossless_host(bed, switch_toml(bed, "stop", kPfcTable));
  bed.end(0).set_engine(
      fc::EngineInstance{nullptr, std::make_unique<fc::PfcEgressGate>(10'000'000'000, TickRate{})},
      3);
  bed.end(2).storm(3, 0xFFFF, 1'000'000);  // a refresh every 1 ms of a 3.4 ms pause
  SwitchNode& node = bed.node();
  uint64_t now = 0;
  for (; now < 1'000'000; now += kStepNs) bed.step(now);
  const uint64_t held = node.tx(2).held();
  ASSERT_GT(node.progress().held, 0u);  // the paused queue holds the host's frames
  const uint64_t control_before = node.rx(2).control_frames();
  node.stop_rx();
  for (; now < 10'000'000; now += kStepNs) bed.step(now);
  EXPECT_EQ(bed.end(2).received(3), 0u);  // nothing got past the pause
  EXPECT_EQ(node.tx(2).held(), held);
  EXPECT_EQ(node.rx(2).control_frames(), control_before + 9);  // one a millisecond, all read
  uint64_t expiries = 1;
  node.tx(2).engine_counters(3, [&](const fc::CounterDescriptor& counter, uint64_t v) {
    if (counter.name == "pause_expiries") expiries = v;
  });
  EXPECT_EQ(expiries, 0u);
  EXPECT_EQ(drops(node, DropReason::kLosslessOverflow), 0u);
  // The downstream lets go: the drain empties the queue. The switch's XON lets the host send
  // again, and what arrives now is freed as after_stop: every frame delivered or counted.
  bed.end(2).stop_sending();
  const uint64_t end_ns = now + 5'000'000;
  for (; now < end_ns; now += kStepNs) bed.step(now);
  bed.end(0).stop_sending();
  bed.settle(now, kStepNs);
  const uint64_t after_stop = drops(node, DropReason::kAfterStop);
  EXPECT_GT(after_stop, 0u);
  EXPECT_EQ(bed.end(2).received(3) + after_stop, bed.end(0).sent(3));
  bed.stop();
  EXPECT_EQ(bed.host_mbufs_in_use(), 0u);
}

// A port told not to trust feedback ignores the storm: counted, not obeyed.
TEST(FlowControlDatapath, UntrustedPortIgnoresPauseFrames) {
  RingTestbed bed("fctrust", 3, 64);
  const std::string toml =
      switch_toml(bed, "trust", kPfcTable, "[ports.flow_control]\ntrust = false");
  start_with_one_lossless_host(bed, toml);
  bed.end(2).storm(3, 0xFFFF, 100'000);
  bed.end(2).drain_at(10'000'000'000);
  uint64_t now = 0;
  for (; now < 1'000'000; now += kStepNs) bed.step(now);
  bed.settle(now, kStepNs);
  EXPECT_EQ(bed.end(2).received(3), bed.end(0).sent(3));
  EXPECT_EQ(drops(bed.node(), DropReason::kControlUntrusted), 10u);  // one per 100 µs
}

// --- GFC ---

// Both hosts send lossless frames at line rate; the switch's port to the sink is capped at
// 2.5 Gb/s (a port pacer), so each host's fair share is 1.25 Gb/s = C/8: buffer-based GFC's
// stage 3. The hosts run the engine the switch runs on their ports, with the same parameters.
struct GfcRun {
  uint64_t sent = 0, at_sink = 0;
  uint64_t sink_bytes_second_half = 0;
  std::vector<uint64_t> host0_rates;  // host 0's gate rate each time it changed
};

GfcRun run_gfc(RingTestbed& bed, const std::string& flow_control, const std::string& engine) {
  const config::SwitchConfig config = config::parse_switch_config(
      switch_toml(bed, engine, flow_control,
                  "rate_limit = \"2.5Gbps\"\n[ports.flow_control]\nengine = \"none\""),
      "test.toml");
  bed.start(config);
  for (int h = 0; h < 2; ++h) {
    traffic::FrameSpec spec{kSinkMac, kHostMac[h],   {}, traffic::FrameSpec::L3::kIpv4,
                            0x88B6,   kLosslessDscp, 0,  kFrameBytes};
    bed.end(h).add_stream(Stream{spec, true});
    const config::PriorityFlowControl& chosen = config.ports[h].flow_control.priorities[3];
    fc::EngineContext context;
    context.link =
        fc::LinkParams{10'000'000'000, config.ports[h].flow_control.response_time_ns, kBufferBytes};
    context.priority = 3;
    bed.end(h).set_engine(chosen.engine->make(*chosen.params, context), 3);
  }
  GfcRun run;
  auto host0_rate = [&] {
    uint64_t rate = 0;
    bed.end(0).engine().gate->counters([&](const fc::CounterDescriptor& counter, uint64_t v) {
      if (counter.name == "rate_bps") rate = v;
    });
    return rate;
  };
  run.host0_rates.push_back(host0_rate());
  uint64_t now = 0, sink_half = 0;
  for (; now < kRunNs; now += kStepNs) {
    bed.step(now);
    if (host0_rate() != run.host0_rates.back()) run.host0_rates.push_back(host0_rate());
    if (now == kRunNs / 2) {
      sink_half = bed.end(2).received(3);
      // The sink port is backlogged and paced: TX says when its pacer opens, within one gap
      // ((1000 + 24) × 8 bits at 2.5 Gb/s = 3277 ns) — where the lab's clock would jump.
      const uint64_t opens = bed.node().tx(2).next_action_ticks();
      EXPECT_GT(opens, now);
      EXPECT_LE(opens, now + 3277);
    }
  }
  run.sink_bytes_second_half = (bed.end(2).received(3) - sink_half) * kFrameBytes;
  bed.settle(now, kStepNs);
  run.sent = bed.end(0).sent(3) + bed.end(1).sent(3);
  run.at_sink = bed.end(2).received(3);
  fmt::print("{}: {}/{} delivered; host 0 rates:", engine, run.at_sink, run.sent);
  for (size_t i = 0; i < run.host0_rates.size() && i < 40; ++i)
    fmt::print(" {}", run.host0_rates[i] / 1'000'000);
  fmt::print(" ({} changes) Mb/s; sink {:.3f} Gb/s in the second half\n", run.host0_rates.size(),
             static_cast<double>(run.sink_bytes_second_half) * 8 / (kRunNs / 2));
  return run;
}

// The port pacer holds the sink port to 2.5 Gb/s of frames plus Ethernet overhead.
void expect_paced_at_2_5_gbps(const GfcRun& run) {
  const double wire_bits = static_cast<double>(run.sink_bytes_second_half) *
                           (kFrameBytes + kEthernetOverheadBytes) / kFrameBytes * 8;
  EXPECT_NEAR(wire_bits / (kRunNs / 2), 2.5, 0.025);  // Gb/s, within 1 %
}

TEST(FlowControlDatapath, GfcBufferStepsTheSendersDownStageByStageWithoutLoss) {
  RingTestbed bed("fcgfcb", 3, 64);
  // B_1 = 100 KB of the 200 KB buffer, on B_top = B_m − (1+c)·F = 148388 (c = 33: a TX burst of
  // 32 and the wire; F = 1518): stages at 100000, 124194, 136291, 142340 bytes... (the paper's,
  // on B_m: 100, 150, 175, 187.5 KB)
  const GfcRun run = run_gfc(bed, R"(
[flow_control]
engine = "gfc-buffer"
response_time = "2us"
gfc-buffer = { b1 = "100KB" }
)",
                             "gfc-buffer");
  EXPECT_EQ(drops(bed.node(), DropReason::kLosslessOverflow), 0u);
  EXPECT_EQ(run.at_sink, run.sent);
  // Stage by stage: each new lowest rate is half the one before (C/2, C/4, C/8), reaching
  // stage 3, where 2 × C/8 matches the 2.5 Gb/s drain; the τ overshoot goes one stage at most.
  const auto& stages = bed.end(0).class_times();
  ASSERT_FALSE(stages.empty());
  int deepest = 0;
  for (uint16_t stage : stages) {
    EXPECT_LE(stage, deepest + 1) << "skipped a stage on the way down";
    deepest = std::max(deepest, static_cast<int>(stage));
  }
  EXPECT_GE(deepest, 3);
  EXPECT_LE(deepest, 4);
  std::vector<uint64_t> lowest{run.host0_rates[0]};
  for (uint64_t rate : run.host0_rates)
    if (rate < lowest.back()) lowest.push_back(rate);
  ASSERT_GE(lowest.size(), 4u);
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(lowest[k], 10'000'000'000u >> k);
  expect_paced_at_2_5_gbps(run);
  // Feedback went out as PFC-layout frames (the default stage opcode is PFC's).
  EXPECT_EQ(bed.node().tx(0).pfc_frames_sent(), stages.size());
  bed.stop();
  EXPECT_EQ(bed.host_mbufs_in_use(), 0u);
}

TEST(FlowControlDatapath, GfcTimeLowersTheSendersRateWithoutLoss) {
  RingTestbed bed("fcgfct", 3, 64);
  const GfcRun run = run_gfc(bed, R"(
[flow_control]
engine = "gfc-time"
response_time = "2us"
)",
                             "gfc-time");
  EXPECT_EQ(drops(bed.node(), DropReason::kLosslessOverflow), 0u);
  EXPECT_EQ(run.at_sink, run.sent);
  // The rate came down from C in steps, one per credit update, and never to 0 (Theorem 5.1:
  // the queue does not reach B_m, so no hold and wait).
  ASSERT_GE(run.host0_rates.size(), 4u);
  EXPECT_EQ(run.host0_rates[0], 10'000'000'000u);
  EXPECT_LT(run.host0_rates[1], run.host0_rates[0]);
  EXPECT_LT(run.host0_rates[2], run.host0_rates[1]);
  for (uint64_t rate : run.host0_rates) EXPECT_GT(rate, 0u);
  // In the second half it hovers around the fair share C/8 = 1.25 Gb/s.
  const uint64_t last = run.host0_rates.back();
  EXPECT_GT(last, 600'000'000u);
  EXPECT_LT(last, 2'500'000'000u);
  expect_paced_at_2_5_gbps(run);
  bed.stop();
  EXPECT_EQ(bed.host_mbufs_in_use(), 0u);
}

}  // namespace
}  // namespace fcswitch::testbed

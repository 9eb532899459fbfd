// Cost of an egress gate on the TX path, per packet: what TxTask asks of it for every packet
// (may_send, then on_dequeue), for each engine, beside no gate at all. Prints ns/packet
// (Google Benchmark); never a test. The limiter cases advance time so that the gate opens
// for every packet, as on a port sending at the limited rate.

#include <benchmark/benchmark.h>

#include <memory>

#include "fc/cbfc_engine.h"
#include "fc/engine_registry.h"
#include "fc/gfc_buffer_engine.h"
#include "fc/gfc_linear_map.h"
#include "fc/gfc_time_engine.h"
#include "fc/pfc_engine.h"
#include "shaping/rate_limiter.h"
#include "wire/pfc_frame.h"

namespace fcswitch::fc {
namespace {

constexpr uint64_t k10G = 10'000'000'000;
constexpr uint32_t kFrameBytes = 1000;

EngineContext context() {
  EngineContext c;
  c.link = LinkParams{k10G, 7400, 1'000'000};
  c.ticks = TickRate{2'600'000'000};  // a TSC
  c.priority = 3;
  return c;
}

// Time steps by the packet's gap at `rate_bps` so that the sender is open each time it is
// asked; `each` runs first in every iteration (a credit update, say). Inlined lambdas: the
// loop costs what the sender costs.
template <typename MaySend, typename Send, typename Each>
void run_sender(benchmark::State& state, uint64_t rate_bps, MaySend may_send, Send send,
                Each each) {
  const uint64_t step = TickRate{2'600'000'000}.for_bits((kFrameBytes + 24) * 8, rate_bps);
  uint64_t now = 1;
  uint64_t sent = 0;
  for (auto _ : state) {
    each(now, sent);
    if (may_send(now)) {
      send(now);
      ++sent;
    }
    now += step;
    benchmark::DoNotOptimize(now);
  }
  state.counters["sent"] = static_cast<double>(sent);
}

void run_gate(benchmark::State& state, EgressGate& gate, uint64_t rate_bps) {
  run_sender(
      state, rate_bps, [&](uint64_t now) { return gate.may_send(now, kFrameBytes); },
      [&](uint64_t now) { gate.on_dequeue(now, kFrameBytes); }, [](uint64_t, uint64_t) {});
}

void NoGate(benchmark::State& state) {
  uint64_t now = 0;
  for (auto _ : state) benchmark::DoNotOptimize(now += 1);
}
BENCHMARK(NoGate);

void Pfc(benchmark::State& state) {
  PfcEgressGate gate(k10G, context().ticks);
  run_gate(state, gate, k10G);
}
BENCHMARK(Pfc);

void Cbfc(benchmark::State& state) {
  CbfcEgressGate gate;
  gate.on_message(ControlMessage{0, ControlKind::kCreditLimit, 3, 0, 0x7FFF'FFFF});
  run_gate(state, gate, k10G);
}
BENCHMARK(Cbfc);

void GfcBufferStage0(benchmark::State& state) {
  GfcBufferEgressGate gate(GfcStageTable(context().link, 0), context());
  run_gate(state, gate, k10G);
}
BENCHMARK(GfcBufferStage0);

void GfcBufferStage3(benchmark::State& state) {
  GfcBufferEgressGate gate(GfcStageTable(context().link, 0), context());
  gate.on_message(ControlMessage{0, ControlKind::kClassTime, 3, wire::kPfcOpcode, 3});
  run_gate(state, gate, k10G / 8);
}
BENCHMARK(GfcBufferStage3);

void GfcTimeHalfRate(benchmark::State& state) {
  const GfcLinearMap map(context().link, 52'428, 0);
  GfcTimeEgressGate gate(map, context());
  // Half of B_m − B_0 left: C/2. A credit update every 32 packets keeps it there.
  const auto half_blocks = static_cast<uint32_t>((map.buffer_bytes() - map.b0_bytes()) / 2 / 64);
  run_sender(
      state, k10G / 2, [&](uint64_t now) { return gate.may_send(now, kFrameBytes); },
      [&](uint64_t now) { gate.on_dequeue(now, kFrameBytes); },
      [&](uint64_t now, uint64_t sent) {
        if ((sent & 31) == 0)
          gate.on_message(
              ControlMessage{now, ControlKind::kCreditLimit, 3, 0, gate.fctbs() + half_blocks});
      });
}
BENCHMARK(GfcTimeHalfRate);

void RateLimiterAlone(benchmark::State& state) {
  const shaping::RateLimiterProfile profile(k10G, TickRate{2'600'000'000});
  shaping::RateLimiter limiter(profile);
  limiter.set_rate(profile, k10G / 3);
  run_sender(
      state, k10G / 3, [&](uint64_t now) { return limiter.may_send(now); },
      [&](uint64_t now) { limiter.on_send(profile, now, kFrameBytes); }, [](uint64_t, uint64_t) {});
}
BENCHMARK(RateLimiterAlone);

}  // namespace
}  // namespace fcswitch::fc

BENCHMARK_MAIN();

// Cost of the host transports per packet: what a host asks of them for each frame it sends or
// receives. Prints ns/packet (Google Benchmark); never a test. Each case runs a fixed
// 1 000 000 iterations, one packet each, so that under callgrind the inclusive Ir of a case's
// function divided by 10^6 is its instructions per packet, whatever the machine's load:
//   valgrind --tool=callgrind build/tools/fcswitch-bench-transport-cost
//   callgrind_annotate --inclusive=yes callgrind.out.* | grep 'transport::.*benchmark::State'

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>

#include "transport/cnp_pacer.h"
#include "transport/dcqcn_reaction_point.h"
#include "transport/timely_sender.h"
#include "transport/window_receiver.h"
#include "transport/window_sender.h"

namespace fcswitch::transport {
namespace {

constexpr uint64_t k10G = 10'000'000'000;
constexpr uint32_t kFrameBytes = 1000;
constexpr int64_t kPackets = 1'000'000;
const TickRate kTsc{2'600'000'000};
// A 1000-byte frame's gap at 10 Gb/s with preamble, FCS and inter-frame gap.
const uint64_t kFrameTicks = kTsc.for_bits((kFrameBytes + 24) * 8, k10G);

// The loop alone, to subtract: time steps as in the cases below.
void NoTransport(benchmark::State& state) {
  uint64_t now = 1;
  for (auto _ : state) benchmark::DoNotOptimize(now += kFrameTicks);
}
BENCHMARK(NoTransport)->Iterations(kPackets);

// The sender's per-frame work while recovering from a cut: the byte counter and the timers it
// polls, with a CNP every 1000 frames (so every event kind comes round).
void DcqcnSendRecovering(benchmark::State& state) {
  DcqcnParams params;
  params.byte_counter_bytes = 64 * kFrameBytes;
  DcqcnReactionPoint rp(params, k10G, kTsc);
  uint64_t now = 1;
  uint64_t frames = 0;
  for (auto _ : state) {
    if (frames++ % 1000 == 0) rp.on_cnp(now);
    rp.on_sent(now, kFrameBytes);
    now += kFrameTicks;
    benchmark::DoNotOptimize(rp.rate_bps());
  }
  state.counters["cnps"] = static_cast<double>(rp.cnps());
}
BENCHMARK(DcqcnSendRecovering)->Iterations(kPackets);

// At line rate, before any CNP: what DCQCN costs a flow that is never marked.
void DcqcnSendAtLineRate(benchmark::State& state) {
  DcqcnReactionPoint rp(DcqcnParams{}, k10G, kTsc);
  uint64_t now = 1;
  for (auto _ : state) {
    rp.on_sent(now, kFrameBytes);
    now += kFrameTicks;
    benchmark::DoNotOptimize(rp.rate_bps());
  }
}
BENCHMARK(DcqcnSendAtLineRate)->Iterations(kPackets);

// The receiver's per-CE-frame work when every frame is marked.
void CnpPacerEveryFrameMarked(benchmark::State& state) {
  CnpPacer np(50'000, kTsc);
  uint64_t now = 1;
  uint64_t cnps = 0;
  for (auto _ : state) {
    cnps += np.on_ce(now);
    now += kFrameTicks;
  }
  state.counters["cnps"] = static_cast<double>(cnps);
}
BENCHMARK(CnpPacerEveryFrameMarked)->Iterations(kPackets);

// TIMELY's per-ACK work: one RTT sample per frame. The RTTs are a triangle between 30 µs and
// 600 µs in 1024 samples (~1.1 µs a step), so the run passes below T_low, above T_high, and
// through the gradient band both ways (hyperactive increase falling, the gradient's cut rising).
void timely_sample_per_frame(benchmark::State& state, bool scaled) {
  std::array<uint64_t, 1024> rtt_ticks{};
  for (size_t i = 0; i < rtt_ticks.size(); ++i) {
    const uint64_t phase = i < 512 ? i : 1023 - i;
    rtt_ticks[i] = kTsc.from_ns(30'000 + phase * 570'000 / 511);
  }
  TimelyParams params;
  params.scale_by_sample_interval = scaled;
  TimelySender sender(params, k10G, kTsc);
  uint64_t now = 1;
  size_t i = 0;
  for (auto _ : state) {
    sender.on_rtt(now, rtt_ticks[i++ % rtt_ticks.size()]);
    now += kFrameTicks;
    benchmark::DoNotOptimize(sender.rate_bps());
  }
  state.counters["samples"] = static_cast<double>(sender.samples());
}

void TimelyPerFrame(benchmark::State& state) {
  timely_sample_per_frame(state, false);
}
BENCHMARK(TimelyPerFrame)->Iterations(kPackets);

void TimelyPerFrameScaled(benchmark::State& state) {
  timely_sample_per_frame(state, true);
}
BENCHMARK(TimelyPerFrameScaled)->Iterations(kPackets);

// One frame through the window sender, no loss: poll, can_send, next_sequence, on_sent, and the
// ACK of a frame sent 32 frames earlier (a pipe 32 deep; Reno's cwnd reaches 64 in the first
// few dozen frames).
void window_sender_frame_and_ack(benchmark::State& state, bool reno) {
  WindowParams params;
  params.window_bytes = 64 * kFrameBytes;
  params.reno = reno;
  WindowSender sender(params, kFrameBytes, 0, kTsc);
  uint64_t now = 1;
  for (auto _ : state) {
    sender.poll(now);
    if (sender.can_send()) sender.on_sent(now, sender.next_sequence());
    if (sender.in_flight_packets() >= std::min<uint64_t>(32, sender.window_packets()))
      sender.on_ack(now, sender.acked() + 1);
    now += kFrameTicks;
  }
  state.counters["acked"] = static_cast<double>(sender.acked());
}

void WindowSenderGoBackN(benchmark::State& state) {
  window_sender_frame_and_ack(state, false);
}
BENCHMARK(WindowSenderGoBackN)->Iterations(kPackets);

void WindowSenderReno(benchmark::State& state) {
  window_sender_frame_and_ack(state, true);
}
BENCHMARK(WindowSenderReno)->Iterations(kPackets);

void WindowReceiverInOrder(benchmark::State& state) {
  WindowReceiver receiver(64);
  uint64_t sequence = 0;
  for (auto _ : state) benchmark::DoNotOptimize(receiver.on_data(sequence++));
}
BENCHMARK(WindowReceiverInOrder)->Iterations(kPackets);

// Blocks of 64 frames, each backwards: 63 frames held out of order, then a jump over 64.
void WindowReceiverReversedBlocks(benchmark::State& state) {
  WindowReceiver receiver(64);
  uint64_t i = 0;
  for (auto _ : state) {
    const uint64_t sequence = (i / 64) * 64 + 63 - i % 64;
    benchmark::DoNotOptimize(receiver.on_data(sequence));
    ++i;
  }
}
BENCHMARK(WindowReceiverReversedBlocks)->Iterations(kPackets);

}  // namespace
}  // namespace fcswitch::transport

BENCHMARK_MAIN();

// Rate limiter accuracy in wall-clock time on this machine (prints figures, never a test).
// A busy loop reads the TSC, asks the GFC §5.3 limiter whether the queue may send, and
// "sends" a frame when it may; the achieved rate is measured against CLOCK_MONOTONIC (so a
// wrong TSC rate shows), and each gap against the limiter's ideal one.
//
// Usage: fcswitch-bench-rate-limiter [MILLISECONDS per rate, default 200]

#include <x86intrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "shaping/rate_limiter.h"

namespace {

using Clock = std::chrono::steady_clock;

// The TSC rate against CLOCK_MONOTONIC (the switch does the same at start-up).
uint64_t measure_tsc_hz() {
  const auto t0 = Clock::now();
  const uint64_t c0 = __rdtsc();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const uint64_t c1 = __rdtsc();
  const auto t1 = Clock::now();
  const double seconds = std::chrono::duration<double>(t1 - t0).count();
  return static_cast<uint64_t>(static_cast<double>(c1 - c0) / seconds);
}

struct Result {
  double achieved_bps;
  double mean_late_ns, p50_late_ns, p99_late_ns, max_late_ns;
  uint64_t frames;
};

Result run(uint64_t rate_bps, uint32_t frame_bytes, uint64_t tsc_hz, int milliseconds) {
  using namespace fcswitch;
  const TickRate ticks{tsc_hz};
  const shaping::RateLimiterProfile profile(shaping::kNoLineRate, ticks, shaping::WireFraming{},
                                            ticks.from_ns(2000));
  shaping::RateLimiter limiter(profile);
  limiter.set_rate(profile, rate_bps);
  const shaping::WireFraming framing;
  std::vector<double> late_ns;
  late_ns.reserve(1 << 20);
  uint64_t frames = 0, bits = 0;
  const auto start = Clock::now();
  const auto end = start + std::chrono::milliseconds(milliseconds);
  uint64_t now = __rdtsc();
  const uint64_t first = now;
  while (true) {
    now = __rdtsc();
    if (!limiter.may_send(now)) continue;
    if (frames)
      late_ns.push_back(static_cast<double>(now - limiter.next_open_ticks()) * 1e9 /
                        static_cast<double>(tsc_hz));
    limiter.on_send(profile, now, frame_bytes);
    ++frames;
    bits += framing.wire_bits(frame_bytes);
    if ((frames & 63) == 0 && Clock::now() >= end) break;
  }
  // Up to when the queue opens after the last frame: the time the frames took at the rate.
  const double tsc_seconds =
      static_cast<double>(limiter.next_open_ticks() - first) / static_cast<double>(tsc_hz);
  std::sort(late_ns.begin(), late_ns.end());
  double sum = 0;
  for (double v : late_ns) sum += v;
  auto pct = [&](double p) {
    return late_ns.empty() ? 0.0 : late_ns[static_cast<size_t>(p * (late_ns.size() - 1))];
  };
  return Result{static_cast<double>(bits) / tsc_seconds,
                late_ns.empty() ? 0 : sum / static_cast<double>(late_ns.size()),
                pct(0.5),
                pct(0.99),
                late_ns.empty() ? 0 : late_ns.back(),
                frames};
}

}  // namespace

int main(int argc, char** argv) {
  const int ms = argc > 1 ? std::atoi(argv[1]) : 200;
  const uint64_t tsc_hz = measure_tsc_hz();
  std::printf("TSC %.6f GHz against CLOCK_MONOTONIC; %d ms per rate; catch-up 2 us\n",
              static_cast<double>(tsc_hz) / 1e9, ms);
  std::printf("%12s %7s %14s %10s   late by (ns): %8s %8s %8s %9s\n", "target", "frame", "achieved",
              "error", "mean", "p50", "p99", "max");
  struct Case {
    uint64_t rate_bps;
    uint32_t frame_bytes;
  };
  for (const Case c : {Case{1'000'000, 1500}, Case{100'000'000, 1500}, Case{1'000'000'000, 1500},
                       Case{5'000'000'000, 1500}, Case{10'000'000'000, 1500},
                       Case{10'000'000'000, 60}, Case{40'000'000'000, 1500}}) {
    const Result r = run(c.rate_bps, c.frame_bytes, tsc_hz, ms);
    std::printf("%9.3f Gb/s %5u B %9.5f Gb/s %+9.4f %%   %21.1f %8.1f %8.1f %9.1f  (%llu frames)\n",
                static_cast<double>(c.rate_bps) / 1e9, c.frame_bytes, r.achieved_bps / 1e9,
                (r.achieved_bps / static_cast<double>(c.rate_bps) - 1) * 100, r.mean_late_ns,
                r.p50_late_ns, r.p99_late_ns, r.max_late_ns,
                static_cast<unsigned long long>(r.frames));
  }
  return 0;
}

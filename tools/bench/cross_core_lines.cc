// What a cache line costs when it crosses from one CPU to another: the floor under any task
// that reads packets another lcore wrote (FWD in the testbed layout reads each packet's mbuf
// line and its data line after RX wrote them, and writes its meta into the first; TX then
// reads that line back on RX's CPU). Prints two figures, in TSC cycles:
//   - the round trip of one line between the two CPUs (each side waits for the other's
//     write): the latency of one transfer is half of it;
//   - a stream: CPU A writes bursts of 32 "packets" of two lines each into a ring, as RX
//     does; CPU B reads both lines of each, prefetching the whole burst first, and writes a
//     word into the first, as FWD does. The cycles B spends per line, waits for A excluded,
//     are what its memory system overlaps of those transfers.
// Usage: fcswitch-bench-cross-core-lines [CPU_A=0] [CPU_B=1]

#include <pthread.h>
#include <sched.h>
#include <x86intrin.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

namespace {

constexpr size_t kLineBytes = 64;
constexpr unsigned kBurst = 32;        // packets a burst, as the switch's kBurstSize
constexpr unsigned kSlots = 1024;      // packets in the ring: 128 KB, as a small mempool's hot set
constexpr unsigned kBursts = 200'000;  // bursts streamed
constexpr unsigned kRoundTrips = 1'000'000;

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
    std::fprintf(stderr, "cross-core-lines: cannot run on CPU %d\n", cpu);
    std::exit(1);
  }
}

struct alignas(kLineBytes) Line {
  std::atomic<uint64_t> value{0};
};

double round_trip_cycles(int a, int b) {
  Line line;
  std::thread other([&] {
    pin(b);
    for (uint64_t i = 1; i < 2 * kRoundTrips; i += 2) {
      while (line.value.load(std::memory_order_acquire) != i) {
      }
      line.value.store(i + 1, std::memory_order_release);
    }
  });
  pin(a);
  const uint64_t start = __rdtsc();
  for (uint64_t i = 0; i < 2 * kRoundTrips; i += 2) {
    while (line.value.load(std::memory_order_acquire) != i) {
    }
    line.value.store(i + 1, std::memory_order_release);
  }
  const uint64_t cycles = __rdtsc() - start;
  other.join();
  return double(cycles) / kRoundTrips;
}

struct alignas(kLineBytes) Packet {
  uint64_t meta[kLineBytes / sizeof(uint64_t)];  // the mbuf's first line
  uint64_t data[kLineBytes / sizeof(uint64_t)];  // the frame's headers
};

double streamed_cycles_per_line(int a, int b) {
  auto ring = std::make_unique<Packet[]>(kSlots);
  Line tail, head;  // packets written by A, packets read by B
  std::thread writer([&] {
    pin(a);
    for (uint64_t burst = 0; burst < kBursts; ++burst) {
      const uint64_t first = burst * kBurst;
      while (first + kBurst - head.value.load(std::memory_order_acquire) > kSlots) {
      }
      for (unsigned i = 0; i < kBurst; ++i) {
        Packet& p = ring[(first + i) % kSlots];
        p.meta[0] = first + i;
        p.data[0] = first + i;
      }
      tail.value.store(first + kBurst, std::memory_order_release);
    }
  });
  pin(b);
  uint64_t busy = 0, sum = 0;
  for (uint64_t burst = 0; burst < kBursts; ++burst) {
    const uint64_t first = burst * kBurst;
    while (tail.value.load(std::memory_order_acquire) < first + kBurst) {
    }
    const uint64_t start = __rdtsc();
    for (unsigned i = 0; i < kBurst; ++i) {
      _mm_prefetch(reinterpret_cast<const char*>(ring[(first + i) % kSlots].meta), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(ring[(first + i) % kSlots].data), _MM_HINT_T0);
    }
    for (unsigned i = 0; i < kBurst; ++i) {
      Packet& p = ring[(first + i) % kSlots];
      sum += p.meta[0] + p.data[0];
      p.meta[1] = sum;  // FWD's meta
    }
    busy += __rdtsc() - start;
    head.value.store(first + kBurst, std::memory_order_release);
  }
  writer.join();
  if (sum == 0) std::puts("");  // keeps the reads
  return double(busy) / (double(kBursts) * kBurst * 2);
}

}  // namespace

int main(int argc, char** argv) {
  const int a = argc > 1 ? std::atoi(argv[1]) : 0;
  const int b = argc > 2 ? std::atoi(argv[2]) : 1;
  // Each side spins on the other's write: on one CPU they would take turns by time slice.
  if (a == b || std::thread::hardware_concurrency() < 2) {
    std::fprintf(stderr, "cross-core-lines: needs two different CPUs (got %d and %d)\n", a, b);
    return 1;
  }
  const double trip = round_trip_cycles(a, b);
  const double line = streamed_cycles_per_line(a, b);
  std::printf("cache line between CPU %d and CPU %d: round trip %.0f TSC cycles\n", a, b, trip);
  std::printf(
      "lines written on CPU %d, read in bursts of %u packets of 2 lines on CPU %d: "
      "%.1f cycles a line, %.1f a packet\n",
      a, kBurst, b, line, 2 * line);
  return 0;
}

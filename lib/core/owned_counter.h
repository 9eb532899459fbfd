#pragma once
// A counter with one writer (the task that owns it) and any number of readers (metrics,
// shutdown report, other tasks). The writer does a plain load+store, not an atomic
// read-modify-write: with a single writer that is exact, and it costs what a plain
// increment costs. Readers see a value that was true at some recent instant.

#include <atomic>
#include <cstdint>

namespace fcswitch {

class OwnedCounter {
 public:
  // Writer only.
  void add(uint64_t n) {
    value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_release);
  }
  void increment() { add(1); }
  // Writer only: for counters a protocol may reset, as CBFC's ABR is set to FCTBS.
  void set(uint64_t v) { value_.store(v, std::memory_order_release); }
  // Any thread.
  uint64_t read() const { return value_.load(std::memory_order_acquire); }

 private:
  std::atomic<uint64_t> value_{0};
};

// A level (packets held, bytes queued) with one writer and any number of readers.
class OwnedGauge {
 public:
  void set(uint64_t v) { value_.store(v, std::memory_order_release); }
  uint64_t read() const { return value_.load(std::memory_order_acquire); }

 private:
  std::atomic<uint64_t> value_{0};
};

}  // namespace fcswitch

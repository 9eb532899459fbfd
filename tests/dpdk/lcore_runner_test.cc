// The tasks' time on a worker lcore: ticks since the runner's epoch (fchost's time zero),
// held at 0 by a worker that starts before the epoch. In CI a host's worker started ~2 ms
// early (its TSC rate measured under load), the time wrapped to near 2^64, and the pacer's
// next opening, set then, never came: the host sent 0.2 MB in 6 s.

#include <gtest/gtest.h>

#include <rte_cycles.h>

#include <atomic>
#include <thread>

#include "core/task.h"
#include "dpdk/lcore_runner.h"

namespace fcswitch::dpdk {
namespace {

// Keeps the time of its first poll.
class FirstPollTime : public Task {
 public:
  FirstPollTime() : Task("first-poll-time") {}
  bool polled() const { return polled_.load(std::memory_order_acquire); }
  uint64_t first_ticks() const { return first_ticks_; }

 protected:
  bool poll(uint64_t now_ticks) override {
    if (!polled_.load(std::memory_order_relaxed)) {
      first_ticks_ = now_ticks;
      polled_.store(true, std::memory_order_release);
    }
    return false;
  }

 private:
  uint64_t first_ticks_ = 0;
  std::atomic<bool> polled_{false};
};

uint64_t first_poll_ticks(uint64_t epoch_tsc) {
  FirstPollTime task;
  LcoreRunner runner({{&task}}, {}, epoch_tsc);
  runner.start();
  while (!task.polled()) std::this_thread::yield();  // until the worker has polled once
  runner.stop();
  return task.first_ticks();
}

TEST(LcoreRunner, TimeIsHeldAtZeroBeforeTheEpoch) {
  const uint64_t hz = rte_get_tsc_hz();
  EXPECT_EQ(first_poll_ticks(rte_rdtsc() + 10 * hz), 0u);  // ten seconds ahead
}

TEST(LcoreRunner, TimeCountsFromTheEpoch) {
  const uint64_t hz = rte_get_tsc_hz();
  const uint64_t ticks = first_poll_ticks(rte_rdtsc() - hz);  // a second ago
  EXPECT_GE(ticks, hz);
  EXPECT_LT(ticks, 60 * hz);
}

// Busy for its first `busy_polls` polls, each spinning `spin_ticks` of the TSC; idle after.
class SpinThenIdle : public Task {
 public:
  SpinThenIdle(int busy_polls, uint64_t spin_ticks)
      : Task("spin-then-idle"), busy_left_(busy_polls), spin_ticks_(spin_ticks) {}

 protected:
  bool poll(uint64_t) override {
    if (busy_left_ == 0) return false;
    --busy_left_;
    const uint64_t until = rte_rdtsc() + spin_ticks_;
    while (rte_rdtsc() < until) {
    }
    return true;
  }

 private:
  int busy_left_;
  uint64_t spin_ticks_;
};

// Idle, but slow: what it spends must not be put on the busy task polled before it.
class SlowIdle : public Task {
 public:
  explicit SlowIdle(uint64_t spin_ticks) : Task("slow-idle"), spin_ticks_(spin_ticks) {}

 protected:
  bool poll(uint64_t) override {
    const uint64_t until = rte_rdtsc() + spin_ticks_;
    while (rte_rdtsc() < until) {
    }
    return false;
  }

 private:
  uint64_t spin_ticks_;
};

TEST(LcoreRunner, ABusyPollsTimeIsAddedToItsTaskAndAnIdlePollsToNone) {
  const uint64_t ms = rte_get_tsc_hz() / 1000;
  SpinThenIdle busy(3, ms);
  SlowIdle idle(50 * ms);
  LcoreRunner runner({{&busy, &idle}}, {});
  runner.start();
  while (idle.polls() < 4) std::this_thread::yield();  // past the three busy polls
  runner.stop();
  EXPECT_EQ(busy.busy_polls(), 3u);
  EXPECT_GE(busy.busy_ticks(), 3 * ms);
  // Not the idle task's 50 ms after each of them (150 ms): the bound leaves the spins room for
  // being preempted on a loaded machine.
  EXPECT_LT(busy.busy_ticks(), 75 * ms);
  EXPECT_EQ(idle.busy_ticks(), 0u);
  EXPECT_EQ(busy.packets_moved(), 0u);  // a task that does not count them
}

}  // namespace
}  // namespace fcswitch::dpdk

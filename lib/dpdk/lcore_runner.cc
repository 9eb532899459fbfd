#include "dpdk/lcore_runner.h"

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace fcswitch::dpdk {

LcoreRunner::LcoreRunner(std::vector<std::vector<Task*>> lcores, IdleAction idle,
                         uint64_t epoch_tsc)
    : idle_(idle), epoch_tsc_(epoch_tsc) {
  for (auto& tasks : lcores) workers_.push_back(Worker{this, std::move(tasks)});
}

LcoreRunner::~LcoreRunner() {
  stop();
}

int LcoreRunner::worker_main(void* arg) {
  auto* worker = static_cast<Worker*>(arg);
  LcoreRunner& runner = *worker->runner;
  // Linux lets a sleep run 50 µs late by default (timer slack): ask for the sleep we set.
  if (runner.idle_.sleep_ns) prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
  // Each task's previous poll, for the gaps between its polls (0: none yet). The time counts
  // from the epoch, and is 0 before it: gaps are noted from the first poll after it.
  std::vector<uint64_t> last_poll(worker->tasks.size(), 0);
  while (!runner.stop_.load(std::memory_order_relaxed)) {
    bool busy = false;
    // Each task reads the clock as it starts: TX stamps what left against the time RX
    // received it (the time inside the switch), which one reading per round would make 0
    // when both run on this lcore. A TSC read costs ~1 ns per task, far below a burst's work.
    // One task's start is the previous one's end: a busy poll's ticks cost one read a round.
    uint64_t start = runner.now_ticks();
    for (size_t i = 0; i < worker->tasks.size(); ++i) {
      Task* task = worker->tasks[i];
      // A worker that moved to another CPU may read its TSC a little behind: no gap then.
      if (last_poll[i] && start > last_poll[i])
        task->note_poll_gap(start - last_poll[i], runner.idle_.late_poll_ticks);
      last_poll[i] = start;
      const bool moved = task->run_once(start);
      const uint64_t end = runner.now_ticks();
      if (moved) task->add_busy_ticks(end - start);
      busy |= moved;
      start = end;
    }
    if (busy) continue;
    if (runner.idle_.sleep_ns) {
      const timespec pause{0, static_cast<long>(runner.idle_.sleep_ns)};
      nanosleep(&pause, nullptr);
    } else if (runner.idle_.yield) {
      sched_yield();
    }
  }
  return 0;
}

void LcoreRunner::start() {
  unsigned lcore;
  RTE_LCORE_FOREACH_WORKER(lcore) lcore_ids_.push_back(lcore);
  if (lcore_ids_.size() < workers_.size())
    throw std::runtime_error(fmt::format("the layout needs {} worker lcores, EAL has {}",
                                         workers_.size(), lcore_ids_.size()));
  stop_.store(false);
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (rte_eal_remote_launch(worker_main, &workers_[i], lcore_ids_[i]) != 0)
      throw std::runtime_error(fmt::format("cannot launch lcore {}", lcore_ids_[i]));
  }
  running_ = true;
}

void LcoreRunner::stop() {
  if (!running_) return;
  stop_.store(true);
  for (size_t i = 0; i < workers_.size(); ++i) rte_eal_wait_lcore(lcore_ids_[i]);
  running_ = false;
}

}  // namespace fcswitch::dpdk

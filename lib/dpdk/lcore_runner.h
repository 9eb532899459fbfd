#pragma once
// Runs lists of tasks on DPDK worker lcores: lcore i polls tasks[i] in order until stopped.

#include <rte_cycles.h>

#include <atomic>
#include <vector>

#include "core/task.h"

namespace fcswitch::dpdk {

// What a worker does after a round in which no task had work.
struct IdleAction {
  bool yield = false;     // give the CPU away (more lcores than CPUs in this process)
  uint64_t sleep_ns = 0;  // sleep this long ([eal] idle_sleep: many processes on few CPUs)
  // A task polled this long or more after its previous poll counts a late poll
  // (Task::note_poll_gap): the tightest response_time of the ports, in ticks. 0: none.
  uint64_t late_poll_ticks = 0;
};

class LcoreRunner {
 public:
  // `epoch_tsc`: the TSC value the tasks' time counts from (fchost: the testbed's common time
  // zero, so flows start when the scenario says).
  LcoreRunner(std::vector<std::vector<Task*>> lcores, IdleAction idle, uint64_t epoch_tsc = 0);
  ~LcoreRunner();

  void start();  // throws std::runtime_error when there are too few worker lcores
  void stop();   // returns when every worker has left its loop

 private:
  struct Worker {
    LcoreRunner* runner;
    std::vector<Task*> tasks;
  };
  static int worker_main(void* arg);
  // The tasks' time: ticks since the epoch, 0 until it comes. A worker that starts a little
  // before its epoch (the main thread waited on another clock, or this core's TSC reads a
  // little behind) must not see the subtraction wrap: a time near 2^64 puts every timer a
  // task sets then (a pacer's next opening, a flow's next frame) out of reach for good.
  uint64_t now_ticks() const {
    const uint64_t tsc = rte_rdtsc();
    return tsc > epoch_tsc_ ? tsc - epoch_tsc_ : 0;
  }

  std::vector<Worker> workers_;
  std::vector<unsigned> lcore_ids_;
  IdleAction idle_;
  uint64_t epoch_tsc_;
  std::atomic<bool> stop_{false};
  bool running_ = false;
};

}  // namespace fcswitch::dpdk

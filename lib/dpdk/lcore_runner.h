#pragma once
// Runs lists of tasks on DPDK worker lcores: lcore i polls tasks[i] in order until stopped.

#include <atomic>
#include <vector>

#include "core/task.h"

namespace fcswitch::dpdk {

class LcoreRunner {
 public:
  // `yield_when_idle`: after a round in which no task had work, give the CPU away (for
  // layouts with more lcores than CPUs). `epoch_tsc`: the TSC value the tasks' time counts
  // from (fchost: the testbed's common time zero, so flows start when the scenario says).
  LcoreRunner(std::vector<std::vector<Task*>> lcores, bool yield_when_idle, uint64_t epoch_tsc = 0);
  ~LcoreRunner();

  void start();  // throws std::runtime_error when there are too few worker lcores
  void stop();   // returns when every worker has left its loop

 private:
  struct Worker {
    LcoreRunner* runner;
    std::vector<Task*> tasks;
  };
  static int worker_main(void* arg);

  std::vector<Worker> workers_;
  std::vector<unsigned> lcore_ids_;
  bool yield_when_idle_;
  uint64_t epoch_tsc_;
  std::atomic<bool> stop_{false};
  bool running_ = false;
};

}  // namespace fcswitch::dpdk

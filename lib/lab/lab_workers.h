#pragma once
// The threads of fclab --threads N (lab_partition.h): N − 1 workers beside the calling thread.
// At each window of the lab's clock every thread runs its part's steps; the window ends when
// all have (a generation counter and a count of finished parts, spun on briefly and then
// waited on: a window at k = 8 is tens of microseconds, and a futex wake-up costs several).
//
// The workers register with the EAL, so that each has its own mempool cache: frames are
// allocated and freed in every part.

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

namespace fcswitch::lab {

class LabWorkers {
 public:
  // `window(part)` runs a window's steps of `part`, 0 on the calling thread.
  LabWorkers(int threads, std::function<void(int part)> window);
  ~LabWorkers();
  LabWorkers(const LabWorkers&) = delete;
  LabWorkers& operator=(const LabWorkers&) = delete;

  // One window: every part's, in parallel; returns when all have finished, rethrowing the
  // first part's exception if any threw.
  void run_window();

 private:
  void work(int part);
  void stop();  // the workers told to end, and joined

  std::function<void(int)> window_;
  std::vector<std::exception_ptr> errors_;  // [part], of the last window
  std::vector<std::thread> threads_;
  alignas(64) std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
  alignas(64) std::atomic<int> finished_{0};
};

}  // namespace fcswitch::lab

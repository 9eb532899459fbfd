#include "lab/lab_workers.h"

#include <rte_lcore.h>
#include <rte_pause.h>

#include <pthread.h>

#include <string>

namespace fcswitch::lab {

namespace {
// Pauses before sleeping on the futex: 0.5 to 1 ms on recent x86 (a PAUSE of about 140
// cycles), longer than most windows of a busy network, shorter than a slice of a shared CPU.
constexpr int kSpins = 1 << 14;

// Pauses between yields of the CPU while spinning: where threads outnumber the CPUs (a test
// suite running beside, --threads above what is free), the thread being waited for may need
// this one's CPU.
constexpr int kSpinsPerYield = 256;

// Until `value` is no longer `old`; what it is then.
template <typename T>
T wait_change(const std::atomic<T>& value, T old) {
  for (int i = 0; i < kSpins; ++i) {
    const T now = value.load(std::memory_order_acquire);
    if (now != old) return now;
    rte_pause();
    if (i % kSpinsPerYield == kSpinsPerYield - 1) std::this_thread::yield();
  }
  value.wait(old, std::memory_order_acquire);
  return value.load(std::memory_order_acquire);
}
}  // namespace

LabWorkers::LabWorkers(int threads, std::function<void(int)> window)
    : window_(std::move(window)), errors_(static_cast<size_t>(threads)) {
  try {
    for (int p = 1; p < threads; ++p) threads_.emplace_back([this, p] { work(p); });
  } catch (...) {
    stop();  // the threads started so far, before the exception leaves them joinable
    throw;
  }
}

LabWorkers::~LabWorkers() {
  stop();
}

void LabWorkers::stop() {
  stopping_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

void LabWorkers::work(int part) {
  // An lcore id of its own gives it a mempool cache; without one (every id taken) it takes
  // and gives frames at the pool's ring, which is slower, not wrong.
  const bool registered = rte_thread_register() == 0;
  // Named for top and perf: "fclab-part1", …
  pthread_setname_np(pthread_self(), ("fclab-part" + std::to_string(part)).c_str());
  uint64_t seen = 0;
  while (true) {
    seen = wait_change(generation_, seen);
    if (stopping_.load(std::memory_order_acquire)) break;
    try {
      window_(part);
    } catch (...) {
      errors_[static_cast<size_t>(part)] = std::current_exception();
    }
    finished_.fetch_add(1, std::memory_order_acq_rel);
    finished_.notify_one();
  }
  if (registered) rte_thread_unregister();
}

void LabWorkers::run_window() {
  const int workers = static_cast<int>(threads_.size());
  finished_.store(0, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  try {
    window_(0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  for (int done = finished_.load(std::memory_order_acquire); done != workers;)
    done = wait_change(finished_, done);
  std::exception_ptr first;
  for (std::exception_ptr& e : errors_)
    if (e && !first) {
      first = std::exchange(e, nullptr);
    } else {
      e = nullptr;
    }
  if (first) std::rethrow_exception(first);
}

}  // namespace fcswitch::lab

#include "thread_runner.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace fcswitch::tagger_gen {

TaskRunner thread_runner(int threads) {
  if (threads <= 1) return {};
  return [threads](size_t n, const std::function<void(size_t)>& task) {
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const auto work = [&] {
      for (size_t i; (i = next.fetch_add(1)) < n;) {
        try {
          task(i);
        } catch (...) {
          const std::lock_guard lock(failure_mutex);
          if (!failure) failure = std::current_exception();
          next = n;  // the others stop after their current task
        }
      }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < threads && static_cast<size_t>(t) < n; ++t) helpers.emplace_back(work);
    work();
    for (std::thread& h : helpers) h.join();
    if (failure) std::rethrow_exception(failure);
  };
}

}  // namespace fcswitch::tagger_gen

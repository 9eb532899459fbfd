#pragma once
// How tagger's long phases (routes, Algorithm 2, verifier, coverage) use the machine's cores
// and say how far they are, while lib/tagger stays pure (docs/architecture.md: it owns no thread
// and reads no clock): the caller hands in a runner that spreads independent tasks over its
// threads, and a sink for progress. Work splits by destination tree, whose results are merged
// in destination order, so the output does not depend on the thread count.

#include <cstddef>
#include <functional>

namespace fcswitch::tagger {

struct ParallelWork {
  // Runs task(i) for every i in [0, n), possibly several at once on other threads, and
  // returns when all have finished. Empty: one after the other on this thread.
  std::function<void(size_t n, const std::function<void(size_t)>& task)> run;
  // How far the phase is: `done` of `total` units. Called on the caller's thread only.
  std::function<void(double done, double total)> progress;
  size_t batch = 64;  // tasks handed to `run` at once, between progress reports

  void report(double done, double total) const {
    if (progress) progress(done, total);
  }
};

// task(i) for i in [0, n), `work.batch` at a time through `work.run`; after each batch,
// on this thread, `merge(first, end)` (results of tasks [first, end), to be folded in order)
// and work.report(progress_base + end, progress_total).
void run_in_batches(const ParallelWork& work, size_t n, const std::function<void(size_t)>& task,
                    const std::function<void(size_t first, size_t end)>& merge,
                    double progress_base, double progress_total);

}  // namespace fcswitch::tagger

#include "tagger/parallel_work.h"

#include <algorithm>

namespace fcswitch::tagger {

void run_in_batches(const ParallelWork& work, size_t n, const std::function<void(size_t)>& task,
                    const std::function<void(size_t first, size_t end)>& merge,
                    double progress_base, double progress_total) {
  const size_t batch = std::max<size_t>(work.batch, 1);
  for (size_t first = 0; first < n; first += batch) {
    const size_t end = std::min(n, first + batch);
    const auto one = [&](size_t i) { task(first + i); };
    if (work.run) {
      work.run(end - first, one);
    } else {
      for (size_t i = 0; i < end - first; ++i) one(i);
    }
    if (merge) merge(first, end);
    work.report(progress_base + static_cast<double>(end), progress_total);
  }
}

}  // namespace fcswitch::tagger

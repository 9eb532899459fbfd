#pragma once
// The threads tagger-gen lends lib/tagger (tagger/parallel_work.h): the library owns none.

#include <cstddef>
#include <functional>

namespace fcswitch::tagger_gen {

using TaskRunner = std::function<void(size_t n, const std::function<void(size_t)>& task)>;

// Runs task(0) … task(n − 1) on `threads` threads (this one included), each taking the next
// index as it finishes one; the first exception a task throws is thrown again here. One thread
// or fewer: an empty runner (lib/tagger then runs the tasks in order itself).
TaskRunner thread_runner(int threads);

}  // namespace fcswitch::tagger_gen

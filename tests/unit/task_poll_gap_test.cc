// A task's poll gaps (Task::note_poll_gap), as a wall-clock runner notes them: the longest
// over the run, the longest since the watcher's last look, and the gaps later than the budget.

#include <gtest/gtest.h>

#include "core/task.h"

namespace fcswitch {
namespace {

class IdleTask final : public Task {
 public:
  IdleTask() : Task("idle") {}

 protected:
  bool poll(uint64_t) override { return false; }
};

TEST(TaskPollGap, CountsGapsLongerThanTheBudgetAndKeepsTheLongest) {
  IdleTask task;
  task.note_poll_gap(900, 1000);
  task.note_poll_gap(1000, 1000);  // at the budget: not late
  task.note_poll_gap(1001, 1000);
  task.note_poll_gap(5000, 1000);
  EXPECT_EQ(task.late_polls(), 2u);
  EXPECT_EQ(task.late_poll_gap_ticks(), 1001u + 5000u);  // the late gaps whole
  EXPECT_EQ(task.longest_poll_gap_ticks(), 5000u);
  // The watcher's interval starts afresh at each look; the run's longest stays.
  EXPECT_EQ(task.take_recent_longest_poll_gap(), 5000u);
  task.note_poll_gap(300, 1000);
  EXPECT_EQ(task.take_recent_longest_poll_gap(), 300u);
  EXPECT_EQ(task.take_recent_longest_poll_gap(), 0u);
  EXPECT_EQ(task.longest_poll_gap_ticks(), 5000u);
  // No budget (a runner given none): nothing is late.
  task.note_poll_gap(1'000'000, 0);
  EXPECT_EQ(task.late_polls(), 2u);
  EXPECT_EQ(task.late_poll_gap_ticks(), 6001u);
}

}  // namespace
}  // namespace fcswitch

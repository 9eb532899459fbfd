#pragma once
// A unit of polling work (RX of a port, FWD, TX of a port, later hosts and metrics). An
// lcore runs a list of tasks; which tasks share an lcore is configuration (docs/architecture.md).

#include <atomic>
#include <cstdint>
#include <string>

#include "core/owned_counter.h"

namespace fcswitch {

class Task {
 public:
  explicit Task(std::string name) : name_(std::move(name)) {}
  virtual ~Task() = default;
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  const std::string& name() const { return name_; }

  // Called by the lcore runner only. Returns whether there was work.
  bool run_once(uint64_t now_tsc) {
    const bool busy = poll(now_tsc);
    polls_.increment();
    if (busy) busy_polls_.increment();
    return busy;
  }

  // Any thread: how many polls have completed (a poll that started after you read this has
  // finished once it has grown by two) and how many found work.
  uint64_t polls() const { return polls_.read(); }
  uint64_t busy_polls() const { return busy_polls_.read(); }

  // Where an lcore's time goes, as VPP's `show runtime` gives it per node: the TSC ticks of
  // this task's polls that found work, added by a wall-clock runner (dpdk::LcoreRunner; the
  // lab's virtual clock adds none), over the packets it moved (RX: received, FWD: taken from
  // its inputs, TX: sent), or 0 where a task does not count them.
  void add_busy_ticks(uint64_t ticks) { busy_ticks_.add(ticks); }
  uint64_t busy_ticks() const { return busy_ticks_.read(); }

  // The time from one poll's start to the next, as a wall-clock runner sees it: a task not
  // polled for long is a switch that neither hears feedback nor sends it (its thread lost the
  // CPU, or shares it with busy ones). That time is part of τ (GFC §5.4): `late_polls` counts
  // the gaps longer than the budget the runner was given (the tightest response_time) and
  // `late_poll_gap_ticks` their sum (the time the task lost in them: a port it transmits on
  // sent nothing then), and the longest is kept. The runner's thread writes; any thread reads.
  void note_poll_gap(uint64_t gap_ticks, uint64_t late_after_ticks) {
    if (gap_ticks > longest_poll_gap_ticks_.read()) longest_poll_gap_ticks_.set(gap_ticks);
    if (gap_ticks > recent_longest_gap_ticks_.load(std::memory_order_relaxed))
      recent_longest_gap_ticks_.store(gap_ticks, std::memory_order_relaxed);
    if (late_after_ticks && gap_ticks > late_after_ticks) {
      late_polls_.increment();
      late_poll_gap_ticks_.add(gap_ticks);
    }
  }
  // The longest gap since the last call (a watcher's interval: node/response_time_budget.h).
  // One reader; a gap noted while it reads may go to either interval.
  uint64_t take_recent_longest_poll_gap() {
    return recent_longest_gap_ticks_.exchange(0, std::memory_order_relaxed);
  }
  uint64_t longest_poll_gap_ticks() const { return longest_poll_gap_ticks_.read(); }
  uint64_t late_polls() const { return late_polls_.read(); }
  uint64_t late_poll_gap_ticks() const { return late_poll_gap_ticks_.read(); }
  virtual uint64_t packets_moved() const { return 0; }

 protected:
  virtual bool poll(uint64_t now_tsc) = 0;

 private:
  std::string name_;
  OwnedCounter polls_;
  OwnedCounter busy_polls_;
  OwnedCounter busy_ticks_;
  OwnedGauge longest_poll_gap_ticks_;
  std::atomic<uint64_t> recent_longest_gap_ticks_{0};
  OwnedCounter late_polls_;
  OwnedCounter late_poll_gap_ticks_;
};

}  // namespace fcswitch

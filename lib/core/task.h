#pragma once
// A unit of polling work (RX of a port, FWD, TX of a port, later hosts and metrics). An
// lcore runs a list of tasks; which tasks share an lcore is configuration (DESIGN.md §1).

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
  virtual uint64_t packets_moved() const { return 0; }

 protected:
  virtual bool poll(uint64_t now_tsc) = 0;

 private:
  std::string name_;
  OwnedCounter polls_;
  OwnedCounter busy_polls_;
  OwnedCounter busy_ticks_;
};

}  // namespace fcswitch

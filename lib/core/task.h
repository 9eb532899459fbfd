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

 protected:
  virtual bool poll(uint64_t now_tsc) = 0;

 private:
  std::string name_;
  OwnedCounter polls_;
  OwnedCounter busy_polls_;
};

}  // namespace fcswitch

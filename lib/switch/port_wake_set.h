#pragma once
// A set of a switch's ports that have new input for one kind of task, for a caller that polls
// such a task only then (the lab's virtual clock, lab/lab_schedule.h: a fat-tree k = 16
// switch has 16 ports, and a frame crossing it has work for one or two of them). The writers
// of the task's inputs mark the port; the caller clears it when it polls the task, and marks
// it again if the task is not done.
//
// One thread only: a switch whose tasks run on several lcores (fcswitch) never enables it,
// and then marking is a test of an empty vector.

#include <cstdint>
#include <vector>

namespace fcswitch {

class PortWakeSet {
 public:
  void enable(int ports) { words_.assign((static_cast<size_t>(ports) + 63) / 64, 0); }
  bool enabled() const { return !words_.empty(); }

  void mark(int port) {
    if (!words_.empty()) words_[static_cast<size_t>(port) >> 6] |= bit(port);
  }
  void mark_all() {
    for (uint64_t& word : words_) word = ~uint64_t{0};
  }
  void clear(int port) { words_[static_cast<size_t>(port) >> 6] &= ~bit(port); }
  bool marked(int port) const { return words_[static_cast<size_t>(port) >> 6] & bit(port); }

 private:
  static uint64_t bit(int port) { return uint64_t{1} << (port & 63); }

  std::vector<uint64_t> words_;
};

}  // namespace fcswitch

#pragma once
// A set of a switch's ports that have new input for one kind of task, for a caller that polls
// such a task only then (the lab's virtual clock, lab/lab_schedule.h: a fat-tree k = 16
// switch has 16 ports, and a frame crossing it has work for one or two of them). The writers
// of the task's inputs mark the port; the caller clears it when it polls the task, and marks
// it again if the task is not done.
//
// One thread only: a switch whose tasks run on several lcores (fcswitch) never enables it,
// and then marking is a test of an empty vector.

#include <cstddef>
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

  // f(port) for each marked port of 0..ports-1, in turn from `first` round to first − 1: a
  // word's marks at a time, not a test per port (a 64-port switch with one input marked).
  // f may clear or mark the port it is given; a port it has not reached yet is taken as
  // marked or not when its word is read.
  template <typename F>
  void for_each_from(int first, int ports, F&& f) const {
    each_in(first, ports, f);
    each_in(0, first, f);
  }
  // f(port) for each marked port of 0..ports-1 in ascending order, as a walk that tests every
  // port in turn would call it: a port that f marks beyond the one it was given is called
  // too (the word is read again after each call); one at or before it waits for the next
  // walk.
  template <typename F>
  void for_each_ascending(int ports, F&& f) const {
    for (int base = 0; base < ports; base += 64) {
      const size_t w = static_cast<size_t>(base) >> 6;
      const uint64_t in_range = ports - base < 64 ? (uint64_t{1} << (ports - base)) - 1 : ~0ULL;
      for (uint64_t word = words_[w] & in_range; word;) {
        const int bit = __builtin_ctzll(word);
        f(base + bit);
        word = bit == 63 ? 0 : words_[w] & in_range & (~uint64_t{0} << (bit + 1));
      }
    }
  }

 private:
  template <typename F>
  void each_in(int begin, int end, F& f) const {  // the marked ports of [begin, end)
    for (int base = begin & ~63; base < end; base += 64) {
      uint64_t word = words_[static_cast<size_t>(base) >> 6];
      if (base < begin) word &= ~uint64_t{0} << (begin - base);
      if (end - base < 64) word &= (uint64_t{1} << (end - base)) - 1;
      for (; word; word &= word - 1) f(base + __builtin_ctzll(word));
    }
  }
  static uint64_t bit(int port) { return uint64_t{1} << (port & 63); }

  std::vector<uint64_t> words_;
};

}  // namespace fcswitch

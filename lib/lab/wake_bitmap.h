#pragma once
// The items of a lab schedule (its nodes, or its links) woken for a round, polled in
// ascending order: a bit an item and a summary bit a word, so that a round walks only the
// words with a bit set. A list of indices had to be sorted every round, and each item to be
// flagged in its own state (2 % of a fat-tree permutation's instructions, and a line a hop).
//
// One thread (its schedule's).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fcswitch::lab {

class WakeBitmap {
 public:
  explicit WakeBitmap(size_t items = 0)
      : words_((items + 63) / 64, 0), summary_((words_.size() + 63) / 64, 0) {}

  // Idempotent: an item woken twice is polled once.
  void set(size_t item) {
    const size_t w = item >> 6;
    const uint64_t bit = uint64_t{1} << (item & 63);
    if (words_[w] & bit) return;
    words_[w] |= bit;
    summary_[w >> 6] |= uint64_t{1} << (w & 63);
    ++count_;
  }
  bool test(size_t item) const { return words_[item >> 6] >> (item & 63) & 1u; }
  bool empty() const { return count_ == 0; }
  size_t count() const { return count_; }

  // f(item) for each item set, ascending, leaving the set empty. f must not set items here
  // (it wakes them in another set: the next round's).
  template <typename F>
  void drain(F&& f) {
    for (size_t s = 0; s < summary_.size() && count_; ++s) {
      for (uint64_t summary = std::exchange(summary_[s], 0); summary; summary &= summary - 1) {
        const size_t w = s * 64 + static_cast<size_t>(__builtin_ctzll(summary));
        const uint64_t word = std::exchange(words_[w], 0);
        count_ -= static_cast<size_t>(__builtin_popcountll(word));
        for (uint64_t left = word; left; left &= left - 1)
          f(w * 64 + static_cast<size_t>(__builtin_ctzll(left)));
      }
    }
  }

  void swap(WakeBitmap& other) noexcept {
    words_.swap(other.words_);
    summary_.swap(other.summary_);
    std::swap(count_, other.count_);
  }

 private:
  std::vector<uint64_t> words_;
  std::vector<uint64_t> summary_;  // bit w: words_[w] is not zero
  size_t count_ = 0;
};

}  // namespace fcswitch::lab

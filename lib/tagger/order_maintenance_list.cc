#include "tagger/order_maintenance_list.h"

#include <algorithm>
#include <stdexcept>

namespace fcswitch::tagger {

namespace {

// Labels between an element appended at the end and the tail: wide enough that a list of
// 2^20 elements built by appends alone still leaves 2^10 labels between neighbours.
constexpr uint64_t kAppendStride = uint64_t{1} << 32;

}  // namespace

int OrderMaintenanceList::push_back() {
  if (label_.empty()) {
    label_ = {0, kUniverse};
    prev_ = {kHead, kHead};
    next_ = {kTail, kTail};
  }
  const int x = size();
  label_.push_back(0);
  prev_.push_back(-1);
  next_.push_back(-1);
  const int run[] = {x};
  insert_run(prev_[kTail], run);
  return x;
}

void OrderMaintenanceList::unlink(int slot) {
  next_[prev_[slot]] = next_[slot];
  prev_[next_[slot]] = prev_[slot];
}

void OrderMaintenanceList::move_after(int anchor, std::span<const int> run) {
  for (int x : run) unlink(x + kSentinels);
  insert_run(anchor + kSentinels, run);
}

void OrderMaintenanceList::move_before(int anchor, std::span<const int> run) {
  for (int x : run) unlink(x + kSentinels);
  insert_run(prev_[anchor + kSentinels], run);
}

void OrderMaintenanceList::insert_run(int after, std::span<const int> run) {
  const int before = next_[after];
  int at = after;
  for (int x : run) {
    const int slot = x + kSentinels;
    prev_[slot] = at;
    next_[at] = slot;
    at = slot;
  }
  next_[at] = before;
  prev_[before] = at;
  const uint64_t k = run.size();
  const uint64_t gap = label_[before] - label_[after];
  if (gap <= k) {
    relabel(after, static_cast<int>(k));
    return;
  }
  const uint64_t step = before == kTail ? std::min(gap / (k + 1), kAppendStride) : gap / (k + 1);
  uint64_t label = label_[after];
  for (int slot = next_[after]; slot != before; slot = next_[slot]) label_[slot] = label += step;
}

void OrderMaintenanceList::relabel(int after, int extra) {
  // The range grows around `after`'s label; `first`/`last` are the outermost slots found in it
  // (the `extra` unlabelled slots follow `after`).
  int first = after == kHead ? next_[kHead] : after;
  int last = after;
  for (int i = 0; i < extra; ++i) last = next_[last];
  uint64_t count = static_cast<uint64_t>(extra) + (after == kHead ? 0 : 1);
  double limit = 1;  // (2/T)^i, T = 1.5
  for (int bits = 1; bits <= kUniverseBits; ++bits) {
    limit *= 4.0 / 3.0;
    const uint64_t width = uint64_t{1} << bits;
    const uint64_t low = label_[after] & ~(width - 1);
    const uint64_t high = low + width;
    while (prev_[first] != kHead && label_[prev_[first]] >= low) {
      first = prev_[first];
      ++count;
    }
    while (next_[last] != kTail && label_[next_[last]] < high) {
      last = next_[last];
      ++count;
    }
    if (static_cast<double>(count) > limit) continue;
    // Evenly: the range's own lowest label may be the head's (0), so start one step in.
    const uint64_t step = width / (count + 1);
    uint64_t label = low;
    for (int slot = first;; slot = next_[slot]) {
      label_[slot] = label += step;
      if (slot == last) break;
    }
    return;
  }
  throw std::length_error("order-maintenance list: more elements than labels");
}

std::vector<int> OrderMaintenanceList::in_order() const {
  std::vector<int> out;
  if (label_.empty()) return out;
  for (int slot = next_[kHead]; slot != kTail; slot = next_[slot]) out.push_back(slot - kSentinels);
  return out;
}

}  // namespace fcswitch::tagger

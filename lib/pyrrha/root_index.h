#pragma once
// RootId → table slot, sized once: open addressing with linear probing over a power-of-two
// array at least twice the slot count, and backward-shift deletion (no tombstones, so lookups
// stay short however often roots come and go). Classification looks up every hop of a
// packet's path here; nothing is allocated after construction.

#include <cstdint>
#include <vector>

#include "pyrrha/root_id.h"

namespace fcswitch::pyrrha {

class RootIndex {
 public:
  static constexpr int32_t kNone = -1;

  explicit RootIndex(uint32_t slots);

  int32_t find(RootId id) const;
  // The slot of `id`, a fresh one when it is new; kNone when every slot is taken.
  int32_t insert(RootId id, bool& inserted);
  void erase(RootId id);

  uint32_t size() const { return used_; }
  uint32_t capacity() const { return static_cast<uint32_t>(free_.capacity()); }

 private:
  struct Bucket {
    RootId id;
    int32_t slot = kNone;  // kNone: empty
  };
  size_t home(RootId id) const { return RootIdHash{}(id)&mask_; }

  std::vector<Bucket> buckets_;
  size_t mask_;
  std::vector<int32_t> free_;  // a stack of unused slots
  uint32_t used_ = 0;
};

}  // namespace fcswitch::pyrrha

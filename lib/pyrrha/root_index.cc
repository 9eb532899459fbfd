#include "pyrrha/root_index.h"

#include <bit>

namespace fcswitch::pyrrha {

RootIndex::RootIndex(uint32_t slots)
    : buckets_(std::bit_ceil(size_t{slots} * 2)), mask_(buckets_.size() - 1) {
  free_.reserve(slots);
  for (uint32_t s = slots; s > 0; --s) free_.push_back(static_cast<int32_t>(s - 1));
}

int32_t RootIndex::find(RootId id) const {
  for (size_t b = home(id);; b = (b + 1) & mask_) {
    const Bucket& bucket = buckets_[b];
    if (bucket.slot == kNone) return kNone;
    if (bucket.id == id) return bucket.slot;
  }
}

int32_t RootIndex::insert(RootId id, bool& inserted) {
  inserted = false;
  size_t b = home(id);
  for (;; b = (b + 1) & mask_) {
    if (buckets_[b].slot == kNone) break;
    if (buckets_[b].id == id) return buckets_[b].slot;
  }
  if (free_.empty()) return kNone;
  buckets_[b] = {id, free_.back()};
  free_.pop_back();
  ++used_;
  inserted = true;
  return buckets_[b].slot;
}

void RootIndex::erase(RootId id) {
  size_t b = home(id);
  for (;; b = (b + 1) & mask_) {
    if (buckets_[b].slot == kNone) return;
    if (buckets_[b].id == id) break;
  }
  free_.push_back(buckets_[b].slot);
  --used_;
  // Backward shift (Knuth 6.4, Algorithm R): pull later entries of the probe run into the hole
  // unless their home lies cyclically in (hole, entry].
  size_t hole = b;
  for (size_t next = (hole + 1) & mask_; buckets_[next].slot != kNone; next = (next + 1) & mask_) {
    const size_t h = home(buckets_[next].id);
    const bool stays = hole <= next ? (hole < h && h <= next) : (hole < h || h <= next);
    if (stays) continue;
    buckets_[hole] = buckets_[next];
    hole = next;
  }
  buckets_[hole] = Bucket{};
}

}  // namespace fcswitch::pyrrha

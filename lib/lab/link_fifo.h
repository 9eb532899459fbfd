#pragma once
// The frames between a lab port and its link: the port's NIC TX ring (its TX task puts, the
// link takes) and its RX ring (the link delivers, its RX task takes). What an rte_ring was
// here, for one thread: the lab polls every node and link of a network on one. Its indices,
// mask and slot pointer share one cache line, where an rte_ring's header spans three (size,
// producer, consumer), each a first touch per hop on a fat-tree k = 16 (perf: a third of
// LabLink::poll's and RxTask::poll's samples were on them).
//
// Holds exactly `capacity` frames. The slots are not written until used, and a FIFO that empties
// starts again at its first slot, so that it touches only as many slots as it ever held at once:
// the pages of a FIFO that never fills (most of a large lab's) are never made resident, and the
// slots it uses stay in cache.

#include <bit>
#include <cstdint>
#include <memory>
#include <stdexcept>

struct rte_mbuf;

namespace fcswitch::lab {

class alignas(64) LinkFifo {
 public:
  explicit LinkFifo(unsigned capacity)
      : mask_(slots_for(capacity) - 1),
        capacity_(capacity),
        // Default-initialised: no slot is written before a frame is put in it.
        slots_(new rte_mbuf*[mask_ + 1]) {}
  LinkFifo(const LinkFifo&) = delete;
  LinkFifo& operator=(const LinkFifo&) = delete;

  unsigned count() const { return tail_ - head_; }
  bool empty() const { return tail_ == head_; }
  unsigned free_count() const { return capacity_ - count(); }
  // The slot the next frame goes to (0 after the FIFO emptied).
  unsigned next_slot() const { return tail_ & mask_; }

  // False when full.
  bool enqueue(rte_mbuf* m) {
    if (count() == capacity_) return false;
    slots_[tail_++ & mask_] = m;
    return true;
  }
  // As many of the first `n` as there is room for, in order; how many.
  unsigned enqueue_burst(rte_mbuf* const* pkts, unsigned n) {
    if (n > free_count()) n = free_count();
    for (unsigned i = 0; i < n; ++i) slots_[(tail_ + i) & mask_] = pkts[i];
    tail_ += n;
    return n;
  }
  // False when empty.
  bool dequeue(rte_mbuf** m) {
    if (empty()) return false;
    *m = slots_[head_++ & mask_];
    rewind_if_empty();
    return true;
  }
  // Up to `max` frames, oldest first; how many.
  unsigned dequeue_burst(rte_mbuf** pkts, unsigned max) {
    const unsigned n = count() < max ? count() : max;
    for (unsigned i = 0; i < n; ++i) pkts[i] = slots_[(head_ + i) & mask_];
    head_ += n;
    rewind_if_empty();
    return n;
  }

 private:
  void rewind_if_empty() {
    if (head_ == tail_) head_ = tail_ = 0;
  }
  static unsigned slots_for(unsigned capacity) {
    if (capacity == 0 || capacity > (1u << 31))
      throw std::invalid_argument("link FIFO: a capacity of 1 to 2^31 frames");
    return std::bit_ceil(capacity);
  }

  uint32_t head_ = 0;  // free-running: the oldest frame is in slots_[head_ & mask_]
  uint32_t tail_ = 0;  // free-running: the next frame goes to slots_[tail_ & mask_]
  uint32_t mask_;      // slots − 1, the slots a power of two of at least `capacity`
  uint32_t capacity_;
  std::unique_ptr<rte_mbuf*[]> slots_;
};

}  // namespace fcswitch::lab

#include "switch/input_queues.h"

namespace fcswitch {

namespace {
constexpr uint32_t kFirstCapacity = 64;  // two bursts
}  // namespace

InputQueues::InputQueues(int ports)
    : fifos_(static_cast<size_t>(ports) * kNumPriorities), backlogged_(ports, 0) {}

void InputQueues::grow(Fifo& f) {
  const uint32_t capacity = f.mask ? (f.mask + 1) * 2 : kFirstCapacity;
  auto entries = std::make_unique<Entry[]>(capacity);
  for (uint32_t i = 0; i < f.count; ++i) entries[i] = f.entries[(f.first + i) & f.mask];
  f.entries = std::move(entries);
  f.mask = capacity - 1;
  f.first = 0;
}

void InputQueues::push(int slot, rte_mbuf* packet, uint16_t egress_port, uint8_t egress_queue) {
  Fifo& f = fifos_[slot];
  if (f.count == (f.mask ? f.mask + 1 : 0)) grow(f);
  f.entries[(f.first + f.count) & f.mask] = Entry{packet, egress_port, egress_queue};
  ++f.count;
  ++packets_;
  ++pushes_;
  backlogged_[slot / kNumPriorities] |= static_cast<PriorityMask>(1u << (slot % kNumPriorities));
}

void InputQueues::pop(int slot) {
  Fifo& f = fifos_[slot];
  f.first = (f.first + 1) & f.mask;
  --packets_;
  if (--f.count == 0)
    backlogged_[slot / kNumPriorities] &=
        static_cast<PriorityMask>(~(1u << (slot % kNumPriorities)));
}

unsigned InputQueues::take(rte_mbuf** out, unsigned max) {
  unsigned n = 0;
  for (size_t s = 0; s < fifos_.size() && n < max; ++s)
    while (!empty(static_cast<int>(s)) && n < max) {
      out[n++] = front(static_cast<int>(s)).packet;
      pop(static_cast<int>(s));
    }
  return n;
}

}  // namespace fcswitch

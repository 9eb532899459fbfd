#include "switch/fwd/input_queues.h"

#include <bit>

namespace fcswitch {

namespace {
constexpr uint32_t kFirstCapacity = 64;  // two bursts
}  // namespace

InputQueues::InputQueues(int ports)
    : fifos_(static_cast<size_t>(ports) * kNumPriorities), backlogged_(ports, 0) {}

void InputQueues::grow(Fifo& f) {
  const uint32_t capacity = f.mask ? (f.mask + 1) * 2 : kFirstCapacity;
  auto packets = std::make_unique<rte_mbuf*[]>(capacity);
  auto runs = std::make_unique<Run[]>(capacity);
  if (f.count) copy_out(f, packets.get(), f.count);
  for (uint32_t i = 0; i < f.runs_held; ++i) runs[i] = f.runs[(f.first_run + i) & f.mask];
  f.packets = std::move(packets);
  f.runs = std::move(runs);
  f.mask = capacity - 1;
  f.first = 0;
  f.first_run = 0;
}

int InputQueues::only_backlogged_slot() const {
  if (backlogged_slots_ != 1) return -1;
  for (size_t port = 0; port < backlogged_.size(); ++port)
    if (backlogged_[port])
      return slot(static_cast<int>(port), std::countr_zero(unsigned{backlogged_[port]}));
  return -1;
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

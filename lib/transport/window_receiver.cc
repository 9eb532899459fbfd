#include "transport/window_receiver.h"

#include <algorithm>
#include <bit>

namespace fcswitch::transport {

namespace {

uint64_t bitmap_bits(uint64_t window_packets) {
  return std::bit_ceil(std::max<uint64_t>(64, window_packets));
}

}  // namespace

WindowReceiver::WindowReceiver(uint64_t window_packets)
    : window_packets_(std::max<uint64_t>(1, window_packets)),
      mask_(bitmap_bits(window_packets_) - 1),
      held_(bitmap_bits(window_packets_) / 64, 0) {}

void WindowReceiver::set_held(uint64_t sequence, bool on) {
  const uint64_t bit = sequence & mask_;
  const uint64_t flag = uint64_t{1} << (bit % 64);
  if (on) {
    held_[bit / 64] |= flag;
  } else {
    held_[bit / 64] &= ~flag;
  }
}

WindowReceiver::Arrival WindowReceiver::on_data(uint64_t sequence) {
  if (sequence < cumulative_) {
    ++duplicates_;
    return {false, cumulative_};
  }
  if (sequence - cumulative_ >= window_packets_) {
    ++beyond_window_;
    return {false, cumulative_};
  }
  if (sequence != cumulative_) {
    if (held(sequence)) {
      ++duplicates_;
      return {false, cumulative_};
    }
    set_held(sequence, true);
    ++out_of_order_;
    return {true, cumulative_};
  }
  // The hole at the cumulative ACK filled: pass every frame held after it.
  ++cumulative_;
  while (held(cumulative_)) {
    set_held(cumulative_, false);
    ++cumulative_;
  }
  return {true, cumulative_};
}

}  // namespace fcswitch::transport

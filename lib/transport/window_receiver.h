#pragma once
// The window transport's receiver, for one flow: the cumulative ACK (the next expected
// sequence), frames that arrive out of order kept within the window so that the cumulative ACK
// jumps over them once the hole fills, and duplicates recognised. The window is a bitmap over
// sequence numbers, allocated once; a frame costs O(1) (amortised over the frames a jump
// passes). Pure.

#include <cstdint>
#include <vector>

namespace fcswitch::transport {

class WindowReceiver {
 public:
  // window_packets: how far past the cumulative ACK a frame is kept (the advertised window in
  // frames; at least one).
  explicit WindowReceiver(uint64_t window_packets);

  struct Arrival {
    bool fresh;           // the first copy of that sequence, kept
    uint64_t cumulative;  // the ACK to send: the next expected sequence
  };
  // Beyond cumulative + window: not kept (fresh = false) and counted; the sender will resend it.
  Arrival on_data(uint64_t sequence);

  uint64_t cumulative() const { return cumulative_; }
  uint64_t window_packets() const { return window_packets_; }
  uint64_t duplicates() const { return duplicates_; }
  uint64_t beyond_window() const { return beyond_window_; }
  uint64_t out_of_order() const { return out_of_order_; }  // fresh frames kept past a hole

 private:
  bool held(uint64_t sequence) const {
    const uint64_t bit = sequence & mask_;
    return (held_[bit / 64] >> (bit % 64)) & 1;
  }
  void set_held(uint64_t sequence, bool on);

  uint64_t window_packets_;
  // A frame in [cumulative, cumulative + window) sits at bit (sequence & mask_): the bitmap's
  // size is a power of two of at least the window, so two held frames never share a bit.
  uint64_t mask_;
  std::vector<uint64_t> held_;
  uint64_t cumulative_ = 0;
  uint64_t duplicates_ = 0;
  uint64_t beyond_window_ = 0;
  uint64_t out_of_order_ = 0;
};

}  // namespace fcswitch::transport

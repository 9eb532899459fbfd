#pragma once
// The window transport's sender: a reliable stream of fixed-size frames numbered 0, 1, 2, … (the
// lab's sequence stamp) under a window, for one flow. Pure: time is an argument, nothing is
// allocated (a frame's bytes are the caller's; the sender keeps sequence numbers only).
//
// ACKs are cumulative: the receiver's next expected sequence. At most min(advertised window,
// cwnd) frames are in flight, counting from the oldest unacked. Loss recovery:
// - RTO (RFC 6298 §5, with a fixed timeout): the timer starts when a frame goes and none is
//   running (§5.1), restarts on an ACK of new data (§5.3), stops when nothing is outstanding
//   (§5.2). On expiry the sender goes back to the oldest unacked and sends again from there
//   (go-back-N; the receiver keeps what came out of order, so its cumulative ACK skips what
//   already arrived), and the timer starts again with that resend (§5.4–§5.6).
// - Reno (RFC 5681): slow start, +1 frame per ACK of new data while cwnd < ssthresh (§3.1);
//   congestion avoidance, +1 frame per cwnd of frames acked (§3.1's byte counting, RFC 3465
//   §2.1); on the dupack_threshold-th duplicate ACK, ssthresh = max(FlightSize/2, 2) (§3.1
//   Eq. 4), the oldest unacked is resent once, cwnd = ssthresh + dupack_threshold and +1 per
//   further duplicate (§3.2 steps 2–4); the next ACK of new data ends recovery with cwnd =
//   ssthresh (§3.2 step 6; Reno, not NewReno's partial ACKs of RFC 6582). On an RTO,
//   ssthresh = max(FlightSize/2, 2) and cwnd = 1, the loss window (§3.1).
// Without Reno the window is the advertised one and only the RTO resends. Without
// retransmission nothing is ever resent and no window is ever reduced (PABO §VI): the window
// slides on ACKs, and under Reno still grows (slow start, congestion avoidance; PABO §IV's
// senders "perform slow start" with fast retransmit off).
// Counting is in frames: every frame of a flow has the same size.

#include <cstdint>

#include "core/tick_rate.h"
#include "transport/window_params.h"

namespace fcswitch::transport {

class WindowSender {
 public:
  // limit_packets: the flow's size in frames (0: unlimited).
  WindowSender(const WindowParams& params, uint32_t frame_bytes, uint64_t limit_packets,
               const TickRate& ticks);

  // A frame may go now: a fast retransmission is due, or the window has room for the next.
  bool can_send() const {
    if (fast_retransmit_due_) return true;
    if (limit_packets_ != 0 && next_ >= limit_packets_) return false;
    return in_flight_packets() < window_packets();
  }
  // The frame to send when can_send(): the fast retransmission first.
  uint64_t next_sequence() const { return fast_retransmit_due_ ? acked_ : next_; }
  // The frame next_sequence() named went (starts the RTO if none runs).
  void on_sent(uint64_t now_ticks, uint64_t sequence);
  // A cumulative ACK: new data acked, a duplicate (Reno counts them), or an old one (ignored).
  void on_ack(uint64_t now_ticks, uint64_t cumulative);
  // The RTO, if it is due by now.
  void poll(uint64_t now_ticks) {
    if (now_ticks >= rto_due_ticks_) on_timeout();
  }
  // The RTO deadline while frames are outstanding; kNeverTicks otherwise.
  uint64_t next_event_ticks() const { return rto_due_ticks_; }

  bool complete() const { return limit_packets_ != 0 && acked_ >= limit_packets_; }
  uint64_t acked() const { return acked_; }  // cumulative: frames [0, acked) arrived
  // Sent since the oldest unacked and not written off by a go-back-N.
  uint64_t in_flight_packets() const { return next_ - acked_; }
  // The effective window, min(cwnd, advertised), in frames and in bytes (frames × frame
  // bytes: at most window_bytes, since the advertised window is ⌊window_bytes / frame⌋ frames).
  uint64_t window_packets() const {
    return reno_ && cwnd_packets_ < advertised_packets_ ? cwnd_packets_ : advertised_packets_;
  }
  uint64_t cwnd_bytes() const { return window_packets() * frame_bytes_; }
  // Reno's own state (without Reno: cwnd is the advertised window and ssthresh is unused).
  uint64_t cwnd_packets() const { return reno_ ? cwnd_packets_ : advertised_packets_; }
  uint64_t ssthresh_packets() const { return ssthresh_packets_; }
  bool in_fast_recovery() const { return in_recovery_; }

  uint64_t retransmissions() const { return retransmissions_; }  // frames sent more than once
  uint64_t timeouts() const { return timeouts_; }
  uint64_t fast_retransmits() const { return fast_retransmits_; }
  uint64_t duplicate_acks() const { return duplicate_acks_; }

 private:
  void on_timeout();
  void on_new_ack(uint64_t newly_acked_packets);
  void on_duplicate_ack();

  // Profile.
  uint32_t frame_bytes_;
  uint64_t limit_packets_;
  uint64_t advertised_packets_;
  uint64_t rto_ticks_;
  bool retransmit_;
  bool reno_;
  uint32_t dupack_threshold_;

  // The stream: [0, acked_) acked; [acked_, next_) in flight; [next_, sent_max_) sent before
  // and written off by an RTO, to be sent again; from sent_max_ on never sent.
  uint64_t acked_ = 0;
  uint64_t next_ = 0;
  uint64_t sent_max_ = 0;
  uint64_t rto_due_ticks_ = kNeverTicks;

  // Reno.
  uint64_t cwnd_packets_;
  uint64_t ssthresh_packets_;
  uint64_t avoidance_acked_packets_ = 0;  // acked in congestion avoidance since cwnd last grew
  uint32_t dupacks_ = 0;
  bool in_recovery_ = false;
  bool fast_retransmit_due_ = false;

  uint64_t retransmissions_ = 0;
  uint64_t timeouts_ = 0;
  uint64_t fast_retransmits_ = 0;
  uint64_t duplicate_acks_ = 0;
};

}  // namespace fcswitch::transport

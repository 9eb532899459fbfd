#include "transport/window_sender.h"

#include <algorithm>

namespace fcswitch::transport {

namespace {

// RFC 5681 §3.1 Eq. 4: ssthresh = max(FlightSize / 2, 2·SMSS), in frames.
uint64_t halved_flight(uint64_t flight_packets) {
  return std::max<uint64_t>(flight_packets / 2, 2);
}

}  // namespace

WindowSender::WindowSender(const WindowParams& params, uint32_t frame_bytes, uint64_t limit_packets,
                           const TickRate& ticks)
    : frame_bytes_(frame_bytes),
      limit_packets_(limit_packets),
      // At least one frame, or the flow could never send (the config refuses such a window).
      advertised_packets_(std::max<uint64_t>(1, params.window_bytes / std::max(1u, frame_bytes))),
      rto_ticks_(std::max<uint64_t>(1, ticks.from_ns(params.rto_ns))),
      retransmit_(params.retransmit),
      reno_(params.reno),
      dupack_threshold_(std::max(1u, params.dupack_threshold)),
      cwnd_packets_(std::max<uint64_t>(1, params.initial_cwnd_packets)),
      ssthresh_packets_(params.initial_ssthresh_packets) {}

void WindowSender::on_sent(uint64_t now_ticks, uint64_t sequence) {
  if (fast_retransmit_due_ && sequence == acked_) {
    fast_retransmit_due_ = false;
    ++retransmissions_;
  } else {
    if (sequence < sent_max_) {
      ++retransmissions_;
    } else {
      sent_max_ = sequence + 1;
    }
    next_ = sequence + 1;
  }
  if (retransmit_ && rto_due_ticks_ == kNeverTicks) rto_due_ticks_ = now_ticks + rto_ticks_;
}

void WindowSender::on_ack(uint64_t now_ticks, uint64_t cumulative) {
  // An ACK past anything sent acknowledges no more than was sent.
  cumulative = std::min(cumulative, sent_max_);
  if (cumulative > acked_) {
    const uint64_t newly = cumulative - acked_;
    acked_ = cumulative;
    // Frames written off by an RTO that arrived after all are not sent again.
    next_ = std::max(next_, acked_);
    on_new_ack(newly);
    if (retransmit_)
      rto_due_ticks_ = in_flight_packets() > 0 ? now_ticks + rto_ticks_ : kNeverTicks;
  } else if (cumulative == acked_ && in_flight_packets() > 0) {
    ++duplicate_acks_;
    on_duplicate_ack();
  }
}

void WindowSender::on_new_ack(uint64_t newly_acked_packets) {
  dupacks_ = 0;
  // A fast retransmission not yet sent is moot: its frame is acked.
  fast_retransmit_due_ = false;
  if (!reno_) return;
  if (in_recovery_) {
    in_recovery_ = false;
    cwnd_packets_ = ssthresh_packets_;
  } else if (cwnd_packets_ < ssthresh_packets_) {
    ++cwnd_packets_;
  } else {
    avoidance_acked_packets_ += newly_acked_packets;
    if (avoidance_acked_packets_ >= cwnd_packets_) {
      avoidance_acked_packets_ -= cwnd_packets_;
      ++cwnd_packets_;
    }
  }
}

void WindowSender::on_duplicate_ack() {
  // Without retransmission Reno still grows its window but never reduces it (PABO §VI: "skipping
  // the related window reduction").
  if (!reno_ || !retransmit_) return;
  ++dupacks_;
  if (in_recovery_) {
    ++cwnd_packets_;
  } else if (dupacks_ == dupack_threshold_) {
    ssthresh_packets_ = halved_flight(in_flight_packets());
    cwnd_packets_ = ssthresh_packets_ + dupack_threshold_;
    avoidance_acked_packets_ = 0;
    in_recovery_ = true;
    fast_retransmit_due_ = true;
    ++fast_retransmits_;
  }
}

void WindowSender::on_timeout() {
  ++timeouts_;
  if (reno_) {
    ssthresh_packets_ = halved_flight(in_flight_packets());
    cwnd_packets_ = 1;
    avoidance_acked_packets_ = 0;
  }
  next_ = acked_;
  dupacks_ = 0;
  in_recovery_ = false;
  fast_retransmit_due_ = false;
  // Nothing is in flight now: the resend starts the timer again.
  rto_due_ticks_ = kNeverTicks;
}

}  // namespace fcswitch::transport

#pragma once
// The window transport's parameters: a reliable stream of fixed-size frames under a fixed
// advertised window (PABO §IV: "TCP with a fixed advertised window"), retransmission on a fixed
// RTO, and optionally Reno's congestion window (RFC 5681) on top.

#include <cstdint>

namespace fcswitch::transport {

struct WindowParams {
  // The receiver's advertised window, fixed for the flow. In frames it is
  // ⌊window_bytes / frame_bytes⌋, at least one (the config refuses a window below one frame).
  uint64_t window_bytes = 65'535;
  // Retransmission timeout, fixed: no RTT estimate and no backoff (RFC 6298 §2 and §5.5 have
  // both; PABO §IV fixes it, at 240 s, to keep retransmissions out of its measurements).
  uint64_t rto_ns = 1'000'000;
  // false: never resend, no RTO, no fast retransmit and no window reduction — the window
  // slides on ACKs (and under Reno still grows) (PABO §VI under PABO, whose bounces replace
  // drops: "skipping the related window reduction").
  bool retransmit = true;
  // Reno: slow start, congestion avoidance, fast retransmit and fast recovery on dup ACKs
  // (RFC 5681 §3.1, §3.2). false: the window is the advertised one, and only the RTO resends.
  bool reno = false;
  // Duplicate ACKs that trigger fast retransmit (RFC 5681 §3.2: 3).
  uint32_t dupack_threshold = 3;
  // Reno's initial window in frames: 1, RFC 5681's one-segment loss window and the classic IW.
  // §3.1 allows up to 4 (by segment size); the papers do not say theirs, and one frame makes
  // slow start's doubling per round plain in the traces.
  uint64_t initial_cwnd_packets = 1;
  // PABO §IV: "ssthresh arbitrarily high", so slow start runs until the first loss.
  uint64_t initial_ssthresh_packets = UINT64_MAX;
};

}  // namespace fcswitch::transport

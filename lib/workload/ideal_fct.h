#pragma once
// The ideal flow completion time: a flow alone on an idle path, its frames sent back to back at
// the first link's rate, every switch storing and forwarding whole frames. Slowdown = measured
// FCT / ideal FCT (pFabric, HPCC, Pyrrha §6 report FCT slowdown this way; GFC §6.2.3's
// "slowdown" is the same ratio).
//
// Frames. A flow of S bytes of data goes in n = ceil(S / P) frames, P = mtu_bytes −
// l3l4_header_bytes bytes of data each except the last (S − (n−1)·P). A frame carrying x bytes
// of data takes on the wire
//   w(x) = max(x + l3l4_header_bytes + 14 + 4, 64) + 20 bytes
// (Ethernet header 14 and FCS 4, padded to the 64-byte minimum frame, plus preamble/SFD 8 and
// the inter-frame gap 12).
//
// Time. Frame k takes t(k, h) = 8·w_k / rate_h on hop h (hop 0 is the sender's link, the last
// hop the destination's). It starts on hop h once it has fully arrived there (store and
// forward) and once frame k−1 has left hop h. Propagation d_h is added between hops. The last
// bit of the last frame then arrives at
//   FCT = Σ_h d_h + max over monotone paths from (frame 0, hop 0) to (frame n−1, last hop) of
//         Σ t(k, h) along the path
// (a tandem of deterministic servers, max-plus algebra). With the n−1 full frames identical
// this is computed in O(hops):
//   A_h = w·(Σ_(j≤h) c_j + (n−2)·max_(j≤h) c_j)   the last full frame done at hop h,
//   B_h = max(B_(h−1), A_h) + w_last·c_h          the last frame done at hop h (B_(−1) = 0),
// with c_h = 8 / rate_h; FCT = B_(last) + Σ_h d_h. For equal rates c this is the familiar
// (n + hops − 1)·w·c + Σ d (frames of one size), and for one frame Σ_h w·c_h + Σ d.
// FCT is measured from the first bit leaving the sender to the last bit reaching the receiver.

#include <cstdint>
#include <vector>

namespace fcswitch::workload {

struct PathHop {
  double rate_bps = 0;
  double propagation_ns = 0;
};

struct FrameFormat {
  uint32_t mtu_bytes = 1500;  // the L3 MTU: IP packet at most this long
  // Headers inside the MTU that carry no flow data: IPv4 20 + UDP 8, as the lab's flow frames
  // (lib/lab/flow_frame.h).
  uint32_t l3l4_header_bytes = 28;
};

inline constexpr uint32_t kEthernetHeaderBytes = 14;
inline constexpr uint32_t kEthernetMinFrameWithFcsBytes = 64;
inline constexpr uint32_t kEthernetFcsWireBytes = 4;
inline constexpr uint32_t kEthernetPreambleAndGapBytes = 20;  // preamble/SFD 8 + IFG 12

// Bytes on the wire of a frame carrying `data_bytes` of flow data.
uint64_t wire_bytes_of_frame(uint64_t data_bytes, const FrameFormat& format);

// The ideal FCT, in ns, of a flow of `size_bytes` (≥ 1) over `path` (≥ 1 hop, rates > 0).
// Throws std::invalid_argument otherwise.
double ideal_fct_ns(uint64_t size_bytes, const std::vector<PathHop>& path,
                    const FrameFormat& format);

// measured / ideal; exactly 1 when the measured FCT equals ideal_fct_ns.
inline double slowdown(double measured_fct_ns, double ideal_fct_ns) {
  return measured_fct_ns / ideal_fct_ns;
}

}  // namespace fcswitch::workload

#include "fc/gfc_stage_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "fc/pfc_engine.h"

namespace fcswitch::fc {

uint64_t gfc_two_c_tau_bytes(const LinkParams& link) {
  // PFC's headroom C·τ (pfc_engine.h) over twice the response time, rounded up once.
  return bytes_in_flight(LinkParams{link.rate_bps, 2 * link.response_time_ns, 0});
}

GfcStageTable::GfcStageTable(const LinkParams& link, uint64_t b1_bytes)
    : buffer_bytes_(link.buffer_bytes),
      response_time_ns_(link.response_time_ns),
      two_c_tau_bytes_(gfc_two_c_tau_bytes(link)),
      room_bytes_(link.room_bytes()),
      top_bytes_(buffer_bytes_ > room_bytes_ ? buffer_bytes_ - room_bytes_ : 0),
      max_frame_bytes_(link.max_frame_bytes),
      committed_frames_(link.committed_frames) {
  if (b1_bytes == 0) b1_bytes = top_bytes_ > two_c_tau_bytes_ ? top_bytes_ - two_c_tau_bytes_ : 1;
  const uint64_t span = top_bytes_ > b1_bytes ? top_bytes_ - b1_bytes : 0;  // B_top − B_1
  rates_[0] = link.rate_bps;
  thresholds_[1] = b1_bytes;
  rates_[1] = link.rate_bps >> 1;
  // B_k − B_(k−1) = (B_top − B_1)/2^(k−1) for k ≥ 2: N is the first k where that is ≤ 1 byte.
  int n = 2;
  while (n<kMaxGfcStages&& static_cast<__uint128_t>(span)>(static_cast<__uint128_t>(1) << (n - 1)))
    ++n;
  stages_ = span <= 1 ? 1 : n;
  for (int k = 2; k <= stages_; ++k) {
    thresholds_[k] = top_bytes_ - (span >> (k - 1));  // B_top − ⌊D/2^(k−1)⌋: rounded up
    rates_[k] = link.rate_bps >> k;
  }
}

int GfcStageTable::stage_of(uint64_t occupancy) const {
  // upper_bound over B_1..B_N: the number of thresholds at or below the occupancy.
  const auto* first = thresholds_.data() + 1;
  return static_cast<int>(std::upper_bound(first, first + stages_, occupancy) - first);
}

std::string GfcStageTable::theorem_text() const {
  const uint64_t limit = top_bytes_ > two_c_tau_bytes_ ? top_bytes_ - two_c_tau_bytes_ : 0;
  return fmt::format(
      "B_1 ≤ B_m − 2Cτ − (1+c)·F = {} − {} − {} = {} bytes (τ = {} ns, C = {} Mb/s; room for a "
      "frame of F = {} bytes and c = {} committed past TX's gate)",
      buffer_bytes_, two_c_tau_bytes_, room_bytes_, limit, response_time_ns_, rates_[0] / 1'000'000,
      max_frame_bytes_, committed_frames_);
}

}  // namespace fcswitch::fc

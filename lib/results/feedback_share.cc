#include "results/feedback_share.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/units.h"
#include "wire/credit_frame.h"
#include "wire/pfc_frame.h"

namespace fcswitch::lab {

double feedback_share(const PortResult& port, double duration_s) {
  if (port.rate_bps == 0 || duration_s <= 0) return 0;
  const double bytes =
      static_cast<double>(port.pfc_frames_sent) * (wire::kPfcFrameBytes + kEthernetOverheadBytes) +
      static_cast<double>(port.credit_frames_sent) *
          (wire::kCreditFrameBytes + kEthernetOverheadBytes);
  return bytes * kBitsPerByte / (duration_s * static_cast<double>(port.rate_bps));
}

FeedbackShareSummary feedback_share_summary(const LabResult& result) {
  std::vector<double> shares;
  for (const PortResult& p : result.ports)
    if (p.link_frames_sent + p.link_frames_received > 0)
      shares.push_back(feedback_share(p, result.duration_s));
  FeedbackShareSummary out;
  out.ports = shares.size();
  if (shares.empty()) return out;
  std::sort(shares.begin(), shares.end());
  double sum = 0;
  for (double s : shares) sum += s;
  out.mean = sum / static_cast<double>(shares.size());
  const size_t rank = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(shares.size())));
  out.p99 = shares[std::max<size_t>(rank, 1) - 1];
  out.max = shares.back();
  return out;
}

}  // namespace fcswitch::lab

#include "workload/ideal_fct.h"

#include <algorithm>
#include <stdexcept>

#include "core/units.h"

namespace fcswitch::workload {

uint64_t wire_bytes_of_frame(uint64_t data_bytes, const FrameFormat& format) {
  const uint64_t frame_with_fcs =
      data_bytes + format.l3l4_header_bytes + kEthernetHeaderBytes + kEthernetFcsWireBytes;
  return std::max<uint64_t>(frame_with_fcs, kEthernetMinFrameWithFcsBytes) +
         kEthernetPreambleAndGapBytes;
}

double ideal_fct_ns(uint64_t size_bytes, const std::vector<PathHop>& path,
                    const FrameFormat& format) {
  if (size_bytes == 0 || path.empty() || format.mtu_bytes <= format.l3l4_header_bytes) {
    throw std::invalid_argument(
        "ideal_fct_ns: needs size >= 1 byte, a path of at least one hop, and an MTU above the "
        "L3/L4 headers");
  }
  for (const PathHop& hop : path) {
    if (!(hop.rate_bps > 0) || hop.propagation_ns < 0) {
      throw std::invalid_argument("ideal_fct_ns: every hop needs rate > 0 and propagation >= 0");
    }
  }
  const uint64_t data_per_frame = format.mtu_bytes - format.l3l4_header_bytes;
  const uint64_t frames = (size_bytes + data_per_frame - 1) / data_per_frame;
  const double full_wire = static_cast<double>(wire_bytes_of_frame(data_per_frame, format));
  const double last_wire =
      static_cast<double>(wire_bytes_of_frame(size_bytes - (frames - 1) * data_per_frame, format));

  double sum_c = 0, max_c = 0, done_last = 0, propagation_ns = 0;
  for (const PathHop& hop : path) {
    const double c = static_cast<double>(kBitsPerByte) * 1e9 / hop.rate_bps;  // ns per byte
    sum_c += c;
    max_c = std::max(max_c, c);
    propagation_ns += hop.propagation_ns;
    // The last full frame (index n−2) done at this hop; none when n = 1.
    const double done_full =
        frames >= 2 ? full_wire * (sum_c + static_cast<double>(frames - 2) * max_c) : 0;
    done_last = std::max(done_last, done_full) + last_wire * c;
  }
  return done_last + propagation_ns;
}

}  // namespace fcswitch::workload

#include "lab/flow_transport.h"

#include <fmt/format.h>

#include "lab/flow_frame.h"

namespace fcswitch::lab {

std::optional<std::string> transport_problem(const TransportSettings& settings, FlowTransport t,
                                             uint32_t frame_bytes) {
  if (t == FlowTransport::kTimely && frame_bytes < kTimedFrameMinBytes)
    return fmt::format("frames of at least {} bytes for timely (their send time), not {}",
                       kTimedFrameMinBytes, frame_bytes);
  const uint64_t window = settings.window_bytes(t);
  if (!window || window >= frame_bytes) return std::nullopt;
  return fmt::format("a window ([transport.{}] window, {} bytes) of at least one frame ({} bytes)",
                     transport_name(t), window, frame_bytes);
}

}  // namespace fcswitch::lab

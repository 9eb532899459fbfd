#include "lab/lab_pool_warning.h"

#include <fmt/format.h>

#include "traffic/host_source.h"

namespace fcswitch::lab {

LabFrameCapacity network_frame_capacity(const LabScenario& scenario) {
  return lab_frame_capacity(scenario, HostSource::kQueueAheadPackets);
}

std::optional<std::string> pool_may_run_out(const LabScenario& scenario) {
  const LabFrameCapacity c = network_frame_capacity(scenario);
  if (c.total() <= scenario.mbufs) return std::nullopt;
  return fmt::format(
      "the network can hold {} data frames of {} bytes ({} in the switches' buffers, {} on the "
      "wires, {} in the hosts' queues), more than the pool's {} mbufs ([lab] mbufs): should "
      "they all fill, sources wait for frames and the run is the pool's; {} (a pool costs memory "
      "only for the frames in flight)",
      c.total(), c.frame_bytes, c.switch_frames, c.wire_frames, c.host_frames, scenario.mbufs,
      c.total() <= kMaxLabMbufs
          ? fmt::format("mbufs = {} never runs out", larger_lab_pool(scenario.mbufs, c.total()))
          : fmt::format("mbufs = {} is the most a lab pool takes", kMaxLabMbufs));
}

}  // namespace fcswitch::lab

#pragma once
// The stamp our hosts' flow frames carry after their UDP header (magic, flow id, sequence,
// send time; traffic/flow_frame.h lays it out and builds the frames): the smallest frames
// that hold it, which the scenario's reader checks a flow's frame size against.

#include <cstdint>

namespace fcswitch::wire {

inline constexpr uint32_t kFlowFrameMinBytes = 60;
inline constexpr uint32_t kTimedFrameMinBytes = 66;  // with the send time

}  // namespace fcswitch::wire

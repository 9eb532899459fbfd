#pragma once
// One row format for occupancy time series, written by the lab (queues.csv) and by a
// switch's trace ([trace]): tools/lab_plot.py draws either.

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace fcswitch::metrics {

inline constexpr std::string_view kQueueTraceHeader =
    "time_s,node,port,prio,ingress_bytes,input_bps,pause_frames_sent,fc_level\n";

struct QueueTracePoint {
  double time_s;
  std::string_view node, port;
  int priority;
  uint64_t ingress_bytes;
  double input_bps;
  uint64_t pause_frames_sent;  // cumulative, by this (port, priority) to its upstream
  uint64_t fc_level;           // fc::FeedbackGenerator::level: PFC 1 while XOFF, GFC the stage
};

inline std::string queue_trace_row(const QueueTracePoint& p) {
  return fmt::format("{:.6f},{},{},{},{},{:.0f},{},{}\n", p.time_s, p.node, p.port, p.priority,
                     p.ingress_bytes, p.input_bps, p.pause_frames_sent, p.fc_level);
}

}  // namespace fcswitch::metrics

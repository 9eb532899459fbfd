#include "metrics/occupancy_trace.h"

#include <stdexcept>

#include "metrics/queue_trace_columns.h"

namespace fcswitch::metrics {

OccupancyTrace::OccupancyTrace(const SwitchNode& node, const config::TraceConfig& config)
    : Task("trace"),
      node_(node),
      interval_ticks_(std::max<uint64_t>(1, node.ticks().from_ns(config.interval_ns))),
      recording_(config.start),
      file_(config.file) {
  for (int port = 0; port < node.ports(); ++port)
    for (int prio = 0; prio < kNumPriorities; ++prio)
      if (node.tx(port).has_engine(prio) && (config.priorities >> prio & 1u))
        series_.push_back({port, prio});
  const size_t per_sample = std::max<size_t>(1, series_.size());
  capacity_samples_ = std::max<uint64_t>(1, config.samples / per_sample);
  rows_.resize(capacity_samples_ * per_sample);  // allocated here, never in poll()
  previous_.resize(series_.size());
  csv_.open(file_);
  if (!csv_) throw std::runtime_error("[trace] file: cannot write " + file_);
  csv_ << kQueueTraceHeader;
}

bool OccupancyTrace::poll(uint64_t now) {
  if (!started_) {
    started_ = true;
    start_ticks_ = now;
    next_ticks_ = now;
  }
  if (now < next_ticks_) return false;
  // The next sample is due an interval after this one was due, not after it was taken, so
  // a late poll does not stretch the time base; a long stall skips whole intervals.
  next_ticks_ += interval_ticks_;
  if (next_ticks_ <= now) next_ticks_ = now + interval_ticks_;
  if (!recording_.load(std::memory_order_acquire) || series_.empty()) return false;
  const uint64_t head = head_.load(std::memory_order_relaxed);
  if (head - tail_.load(std::memory_order_acquire) >= capacity_samples_) {
    lost_.increment();
    return true;
  }
  TraceRow* row = &rows_[(head % capacity_samples_) * series_.size()];
  const uint64_t time_ns = node_.ticks().to_ns(now - start_ticks_);
  for (const TraceSeries& s : series_) {
    const TxTask& tx = node_.tx(s.port);
    *row++ = TraceRow{time_ns, node_.ingress_occupancy_bytes(s.port, s.priority),
                      node_.fwd().admitted_bytes(s.port, s.priority),
                      tx.pause_frames_sent(s.priority), tx.feedback_level(s.priority)};
  }
  head_.store(head + 1, std::memory_order_release);
  samples_.increment();
  return true;
}

uint64_t OccupancyTrace::write_pending() {
  const uint64_t head = head_.load(std::memory_order_acquire);
  uint64_t tail = tail_.load(std::memory_order_relaxed);
  uint64_t written = 0;
  const std::string& name = node_.config().name;
  for (; tail < head; ++tail) {
    const TraceRow* row = &rows_[(tail % capacity_samples_) * series_.size()];
    for (size_t i = 0; i < series_.size(); ++i, ++row) {
      const TraceSeries& s = series_[i];
      double input_bps = 0;
      if (has_previous_ && row->time_ns > previous_[i].time_ns)
        input_bps = static_cast<double>(row->admitted_bytes - previous_[i].admitted_bytes) * 8e9 /
                    static_cast<double>(row->time_ns - previous_[i].time_ns);
      csv_ << queue_trace_row({static_cast<double>(row->time_ns) / 1e9, name,
                               node_.config().ports[s.port].name, s.priority, row->ingress_bytes,
                               input_bps, row->pause_frames_sent, row->fc_level});
      previous_[i] = *row;
      ++written;
    }
    has_previous_ = true;
    tail_.store(tail + 1, std::memory_order_release);
  }
  csv_.flush();
  return written;
}

}  // namespace fcswitch::metrics

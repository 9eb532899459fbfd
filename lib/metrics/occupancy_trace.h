#pragma once
// The switch's high-resolution trace (GFC Figs. 9–10 from a testbed): every interval, the
// ingress occupancy, bytes admitted, flow-control frames sent and the generator's level of
// each (port, priority) that runs an engine, into a ring preallocated at start-up. The
// sampler is a task on FWD's lcore and only reads counters other tasks own; the control
// thread drains the ring into CSV with the lab's queues.csv columns, so tools/lab_plot.py
// draws a testbed trace and a lab run alike. A full ring loses whole samples, counted.

#include <atomic>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "core/owned_counter.h"
#include "core/task.h"
#include "node/switch_node.h"
#include "params/observability_params.h"

namespace fcswitch::metrics {

struct TraceSeries {
  int port, priority;
};

// One series at one instant: what the sampler copies, the writer turns into a CSV row.
struct TraceRow {
  uint64_t time_ns;
  uint64_t ingress_bytes;
  uint64_t admitted_bytes;  // cumulative: the writer differentiates it into input_bps
  uint64_t pause_frames_sent;
  uint64_t fc_level;
};

class OccupancyTrace final : public Task {
 public:
  OccupancyTrace(const SwitchNode& node, const config::TraceConfig& config);

  // Any thread: begin or stop sampling (the telemetry command, or the config at start).
  void set_recording(bool on) { recording_.store(on, std::memory_order_release); }
  bool recording() const { return recording_.load(std::memory_order_acquire); }
  uint64_t samples() const { return samples_.read(); }
  uint64_t samples_lost() const { return lost_.read(); }  // the ring was full
  const std::vector<TraceSeries>& series() const { return series_; }
  const std::string& file() const { return file_; }

  // Control thread: appends what the sampler has recorded to the CSV file. Returns rows.
  uint64_t write_pending();

 protected:
  bool poll(uint64_t now_tsc) override;

 private:
  const SwitchNode& node_;
  std::vector<TraceSeries> series_;
  uint64_t interval_ticks_;
  uint64_t next_ticks_ = 0;
  uint64_t start_ticks_ = 0;
  bool started_ = false;
  std::atomic<bool> recording_;
  // The ring: whole samples of series_.size() rows; the sampler advances head_, the writer
  // tail_ (both counts of samples, never wrapped).
  std::vector<TraceRow> rows_;
  uint64_t capacity_samples_;
  std::atomic<uint64_t> head_{0};
  std::atomic<uint64_t> tail_{0};
  OwnedCounter samples_;
  OwnedCounter lost_;
  // Writer's.
  std::string file_;
  std::ofstream csv_;
  std::vector<TraceRow> previous_;
  bool has_previous_ = false;
};

}  // namespace fcswitch::metrics

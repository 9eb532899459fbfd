#pragma once
// What fchost reports at the end: summary.json in the lab's format (results/lab_report.h) — flows,
// the NIC's queues and port, lossless drops, the mempool after shutdown — with a "host"
// section, and a one-screen text. A flow appears in the summary of the host that sends it
// (sent_*, start_s, size_bytes) and in that of the host that receives it (received_*, loss,
// reordering, delay, first and last arrival): tools/testbed_collect.py joins them by id.
// Times count from the host's time zero (fchost --start-at), so hosts given the same one
// share them, to within their clocks' agreement.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/port_host.h"
#include "results/lab_result.h"

namespace fcswitch::host {

struct HostRun {
  double time_zero_unix_s = 0;  // what the tasks' time 0 was, as a Unix time
  double duration_s = 0;        // from time zero to the stop
  bool interrupted = false;     // stopped by a signal before --duration
  // Bytes received per flow id when the last 20 % of the run began (with --duration only).
  std::optional<std::vector<uint64_t>> tail_start_received_bytes;
  double tail_s = 0;
  uint64_t shutdown_freed = 0;  // frames the host still held at the stop
  unsigned pool_in_use_after_shutdown = 0;
};

lab::LabResult host_result(const PortHost& host, const HostRun& run);
nlohmann::ordered_json host_summary_json(const PortHost& host, const lab::LabResult& result,
                                         const HostRun& run);
std::string host_summary_text(const PortHost& host, const lab::LabResult& result,
                              const HostRun& run);

}  // namespace fcswitch::host

#pragma once
// Samples a running lab network every sample interval: ingress occupancy and input rate of
// every (switch, port, priority) that runs an engine, and each flow's received rate; for
// flows over a transport, DCQCN's rate and the window in force; with PABO, the packets in each
// switch port's normal and bounce sub-queues (PABO Fig. 8); with Pyrrha, each switch's roots,
// IQs in use and by state, and the bytes its queues hold (Pyrrha Fig. 7: IQs in use against
// concurrent roots). Writes them as CSV (queues.csv, flows.csv, transports.csv when a flow has
// a transport, pabo.csv when a switch bounces, pyrrha.csv when a switch runs Pyrrha: long
// format, one row per series and time, the columns tools/lab_plot.py reads) and keeps what the
// summary needs: the mean occupancy over the last 20 % of the run and the counts at its start.
//
// pyrrha.csv has a row per Pyrrha switch at every sample.
//
// flows.csv and transports.csv have a row for a flow from the interval it starts in to the one
// it ends in (a sized flow, once its destination has all its bytes): the rows of a workload of
// many short flows stay few.
//
// pabo.csv has a row for a sub-queue pair only while it holds packets and at the first sample
// it is empty again, so that idle ports and idle stretches of a long run cost nothing: between
// two of its rows more than a sample interval apart, the pair was empty.
//
// The files together stay within [lab] csv_limit: a sample whose rows would pass it, and every
// sample after, writes none (said in the log and the summary's csv_stopped_at_s).

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/tick_rate.h"
#include "node/switch_node.h"
#include "scenario/lab_scenario.h"
#include "traffic/host_sink.h"
#include "traffic/host_source.h"

namespace fcswitch::lab {

struct SampledQueue {
  int node, port, priority;
  std::string node_name, port_name;
};

// A switch port's PABO sub-queues on one priority, and whether they held packets at the last
// sample.
struct SampledPaboQueue {
  SampledQueue queue;
  uint32_t normal_capacity_packets, bounce_capacity_packets;
  bool held = false;
};

// What a run samples, from the scenario alone: each switch's (port, priority) that runs an
// engine (and Pyrrha's class), the flows over a transport, the switches that run Pyrrha.
struct SampledSeries {
  std::vector<SampledQueue> queues;
  std::vector<int> transport_flows;  // the flows transports.csv follows
  std::vector<int> pyrrha_switches;  // nodes whose switch runs Pyrrha
};
SampledSeries sampled_series(const LabScenario& scenario);

// What a run's samples write to the CSV files, at representative row widths (pabo.csv,
// written only while a sub-queue holds packets, not counted): at least the rows written at
// every sample (queues, Pyrrha's switches) and one row for each flow under way by the last
// sample; at most, besides those, each flow's rows from its start to the run's end. Where a
// run's flows end between the two is known only as it runs.
struct CsvEstimate {
  double least_bytes = 0;
  double most_bytes = 0;
};
CsvEstimate csv_bytes(const LabScenario& scenario, const SampledSeries& series);

// Says how much CSV a run's samples will write, and refuses (config::ConfigError at
// lab.sample_interval) a run whose rows are sure to pass [lab] csv_limit. One that only may
// pass it runs, and its CSV files stop at the limit (LabSampler). Before any run: fclab
// checks every run of a sweep (and --check) before the first starts, and says the sizes;
// LabNetwork::run checks again, quietly (`say_size` false).
void check_csv_size(const LabScenario& scenario, bool say_size = true);

class LabSampler {
 public:
  LabSampler(const LabScenario& scenario, const std::vector<const SwitchNode*>& switches,
             const FlowSentRecords& sent, const FlowReceivedRecords& received,
             const TickRate& ticks, uint64_t tail_start_ticks, const std::string& out_dir);

  void sample(uint64_t now_ticks);
  // Once, at tail_start: the counts the last-20 % rates start from.
  void mark_tail(uint64_t now_ticks);
  bool tail_marked() const { return tail_marked_; }

  const std::vector<SampledQueue>& queues() const { return queues_; }
  double steady_ingress_bytes(size_t queue) const;
  uint64_t tail_admitted_bytes(size_t queue) const { return tail_admitted_[queue]; }
  // 0 for a flow that started after the tail's start.
  uint64_t tail_received_bytes(size_t flow) const {
    return flow < tail_received_.size() ? tail_received_[flow] : 0;
  }
  uint64_t tail_start_ticks() const { return tail_at_; }
  // The sample whose rows would have taken the CSV files past [lab] csv_limit: from it on no
  // row is written to any of them (every file ends at the same sample); none if they stayed
  // within it. The sampling goes on: the summary's rates and steady queues are the run's.
  std::optional<double> csv_stopped_at_s() const { return csv_stopped_at_s_; }

 private:
  uint64_t admitted(size_t queue) const;
  void sample_pabo(double time_s);
  void sample_pyrrha(double time_s);
  // A flow has rows in flows.csv and transports.csv from the interval it starts in to the one
  // it ends in (its destination had all its bytes by then): a workload gives each host
  // thousands of flows over a long run, each under way for a few samples, and a row for each
  // at every sample would make those files grow as flows × samples. `ended`: it came whole by
  // the last sample, and has had its last row.
  bool has_row(size_t flow, uint64_t now_ns, bool ended) const;
  // Writes a sample's rows, which `rows_` gathered, unless they would take the files past the
  // limit: then the files are closed where they are.
  void write_rows(double time_s);

  const LabScenario& scenario_;
  std::vector<const SwitchNode*> switches_;
  const FlowSentRecords& sent_;
  const FlowReceivedRecords& received_;
  TickRate ticks_;
  uint64_t tail_start_ticks_;
  std::vector<SampledQueue> queues_;
  std::vector<uint64_t> last_admitted_, last_received_;
  std::vector<bool> rows_ended_;  // per flow: came whole by the sample before this one
  uint64_t last_ticks_ = 0;
  std::vector<double> tail_sum_;
  uint64_t tail_samples_ = 0;
  bool tail_marked_ = false;
  uint64_t tail_at_ = 0;
  std::vector<uint64_t> tail_admitted_, tail_received_;
  std::vector<int> transport_flows_;
  std::vector<SampledPaboQueue> pabo_queues_;
  std::vector<int> pyrrha_switches_;
  std::ofstream queues_csv_, flows_csv_, transports_csv_, pabo_csv_, pyrrha_csv_;
  // A sample's rows for each file, written together once the sample is whole.
  struct SampleRows {
    std::string queues, flows, transports, pabo, pyrrha;
    size_t bytes() const {
      return queues.size() + flows.size() + transports.size() + pabo.size() + pyrrha.size();
    }
    void clear() {  // keeping their capacity for the next sample
      for (std::string* s : {&queues, &flows, &transports, &pabo, &pyrrha}) s->clear();
    }
  };
  SampleRows rows_;
  bool writing_ = false;  // CSV files open, the limit not reached
  uint64_t csv_written_bytes_ = 0;
  std::optional<double> csv_stopped_at_s_;
};

}  // namespace fcswitch::lab

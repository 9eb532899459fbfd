#pragma once
// Flow completion times of a lab run, against the ideal, by flow size: the figures Pyrrha §6
// (Figs. 11–13: average and p99 FCT by size) and GFC §6.2.3 (Fig. 17: average slowdown) plot.
//
// The ideal FCT is lib/workload's (ideal_fct.h: the flow alone on an idle path, store and
// forward), of the frames the lab actually sends: a flow of S bytes with F-byte frames (no FCS)
// sends n = ceil(S / F) frames of F bytes, the last one full too (lab/host_source.cc counts
// whole frames until it has sent S). So the ideal is ideal_fct_ns of n·(F − 14) data bytes with
// FrameFormat{mtu = F − 14, l3l4 headers 0}: every frame then has F + 4 (FCS) + 20 (preamble,
// gap) bytes on the wire, as in the lab. A lone flow on an idle path then has slowdown 1.
//
// Only sized flows (size_bytes > 0) are reported; those not received whole by the end of the
// run have no FCT and are counted apart, per bucket, never averaged in.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/lab_scenario.h"
#include "workload/fct_summary.h"
#include "workload/ideal_fct.h"

namespace fcswitch::lab {

// What the report needs of a flow's result (results/lab_result.h's FlowResult, which this pure
// library cannot include: it pulls in the datapath).
struct FlowOutcome {
  int id = 0;
  std::string from, to;
  std::optional<double> fct_s;  // sized flows received whole: last arrival − start
};

// The outcomes of any results with FlowResult's id, from, to and fct_s:
// outcomes_of(lab_result.flows).
template <typename Result>
std::vector<FlowOutcome> outcomes_of(const std::vector<Result>& results) {
  std::vector<FlowOutcome> out;
  out.reserve(results.size());
  for (const Result& r : results) out.push_back(FlowOutcome{r.id, r.from, r.to, r.fct_s});
  return out;
}

struct FlowFct {
  int id = 0;
  std::string from, to;
  uint64_t size_bytes = 0;
  uint32_t frame_bytes = 0;
  double start_s = 0;
  double ideal_fct_s = 0;
  std::optional<double> fct_s;     // nullopt: not received whole by the end of the run
  std::optional<double> slowdown;  // fct / ideal
};

struct FctBucket {
  workload::SizeBucketStats completed;  // count, mean and p99 of FCT and slowdown
  uint64_t incomplete = 0;              // flows of this size never completed
};

struct FctReport {
  std::vector<uint64_t> edges_bytes;
  std::vector<FlowFct> flows;      // sized flows, in the order given
  std::vector<FctBucket> buckets;  // edges_bytes.size() + 1 of them
  FctBucket all;                   // every size together
};

// The ideal FCT, in ns, of a lab flow of `size_bytes` (≥ 1) sent in `frame_bytes` frames over
// `path` (hop 0 the source's link).
double lab_ideal_fct_ns(uint64_t size_bytes, uint32_t frame_bytes,
                        const std::vector<workload::PathHop>& path);

// specs[i] travelled paths[i]; its outcome is the one of `outcomes` with its id. Throws
// std::invalid_argument when the sizes differ, a sized flow has no outcome, or a path is empty
// or has a rate of 0.
FctReport fct_report(const std::vector<FlowSpec>& specs, const std::vector<FlowOutcome>& outcomes,
                     const std::vector<std::vector<workload::PathHop>>& paths,
                     std::span<const uint64_t> edges_bytes = workload::kDefaultBucketEdgesBytes);

// {"flows", "completed", "incomplete", "bucket_edges_bytes", "all": {…}, "by_size": [{…}]};
// times in seconds, null where a bucket has no completed flow.
nlohmann::ordered_json fct_json(const FctReport& report);

// One row per sized flow: id,from,to,size_bytes,start_s,fct_s,ideal_fct_s,slowdown; fct_s and
// slowdown empty for a flow never completed. Throws std::runtime_error if it cannot write.
void write_flows_fct_csv(const std::string& path, const FctReport& report);

}  // namespace fcswitch::lab

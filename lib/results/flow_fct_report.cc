#include "results/flow_fct_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

#include "wire/flow_stamp.h"

namespace fcswitch::lab {

namespace {

FctBucket bucket_of(const std::vector<workload::FlowRecord>& completed,
                    std::span<const uint64_t> edges_bytes, size_t index, uint64_t incomplete) {
  FctBucket bucket;
  bucket.completed = workload::summarize_by_size(completed, edges_bytes).at(index);
  bucket.incomplete = incomplete;
  return bucket;
}

nlohmann::ordered_json ns_as_s_or_null(bool known, double ns) {
  return known ? nlohmann::ordered_json(ns / 1e9) : nlohmann::ordered_json();
}

nlohmann::ordered_json bucket_json(const FctBucket& b) {
  const workload::SizeBucketStats& s = b.completed;
  const bool any = s.count > 0;
  return {
      {"lower_bytes", s.lower_bytes},
      {"upper_bytes", s.upper_bytes == UINT64_MAX ? nlohmann::ordered_json()
                                                  : nlohmann::ordered_json(s.upper_bytes)},
      {"completed", s.count},
      {"incomplete", b.incomplete},
      {"mean_fct_s", ns_as_s_or_null(any, s.mean_fct_ns)},
      {"p99_fct_s", ns_as_s_or_null(any, s.p99_fct_ns)},
      {"mean_slowdown", any ? nlohmann::ordered_json(s.mean_slowdown) : nlohmann::ordered_json()},
      {"p99_slowdown", any ? nlohmann::ordered_json(s.p99_slowdown) : nlohmann::ordered_json()}};
}

}  // namespace

double lab_ideal_fct_ns(uint64_t size_bytes, uint32_t frame_bytes,
                        const std::vector<workload::PathHop>& path) {
  // The source pads short frames to the minimum (flow_frame.h).
  const uint64_t frame = std::max(frame_bytes, wire::kFlowFrameMinBytes);
  const uint64_t frames = (size_bytes + frame - 1) / frame;
  const uint64_t data_per_frame = frame - workload::kEthernetHeaderBytes;
  const workload::FrameFormat format{static_cast<uint32_t>(data_per_frame), 0};
  return workload::ideal_fct_ns(frames * data_per_frame, path, format);
}

FctReport fct_report(const std::vector<FlowSpec>& specs, const std::vector<FlowOutcome>& outcomes,
                     const std::vector<std::vector<workload::PathHop>>& paths,
                     std::span<const uint64_t> edges_bytes) {
  if (paths.size() != specs.size())
    throw std::invalid_argument("fct_report: one path per flow spec");
  std::map<int, const FlowOutcome*> result_of;
  for (const FlowOutcome& r : outcomes) result_of[r.id] = &r;

  FctReport report;
  report.edges_bytes.assign(edges_bytes.begin(), edges_bytes.end());
  std::vector<workload::FlowRecord> completed;
  std::vector<uint64_t> incomplete(edges_bytes.size() + 1, 0);
  for (size_t i = 0; i < specs.size(); ++i) {
    const FlowSpec& spec = specs[i];
    if (spec.size_bytes == 0) continue;  // runs until stopped: no completion time
    const auto found = result_of.find(spec.id);
    if (found == result_of.end())
      throw std::invalid_argument(fmt::format("fct_report: no result for flow {}", spec.id));
    const FlowOutcome& result = *found->second;
    FlowFct f;
    f.id = spec.id;
    f.from = result.from;
    f.to = result.to;
    f.size_bytes = spec.size_bytes;
    f.frame_bytes = spec.frame_bytes;
    f.start_s = static_cast<double>(spec.start_ns) / 1e9;
    const double ideal_ns = lab_ideal_fct_ns(spec.size_bytes, spec.frame_bytes, paths[i]);
    f.ideal_fct_s = ideal_ns / 1e9;
    if (result.fct_s) {
      const double fct_ns = *result.fct_s * 1e9;
      f.fct_s = result.fct_s;
      f.slowdown = workload::slowdown(fct_ns, ideal_ns);
      completed.push_back({spec.size_bytes, fct_ns, ideal_ns});
    } else {
      ++incomplete[static_cast<size_t>(
          std::upper_bound(edges_bytes.begin(), edges_bytes.end(), spec.size_bytes) -
          edges_bytes.begin())];
    }
    report.flows.push_back(std::move(f));
  }
  const std::vector<workload::SizeBucketStats> stats =
      workload::summarize_by_size(completed, edges_bytes);
  for (size_t b = 0; b < stats.size(); ++b) report.buckets.push_back({stats[b], incomplete[b]});
  uint64_t all_incomplete = 0;
  for (uint64_t n : incomplete) all_incomplete += n;
  report.all = bucket_of(completed, {}, 0, all_incomplete);
  return report;
}

nlohmann::ordered_json fct_json(const FctReport& report) {
  nlohmann::ordered_json j;
  j["flows"] = report.flows.size();
  j["completed"] = report.all.completed.count;
  j["incomplete"] = report.all.incomplete;
  j["bucket_edges_bytes"] = report.edges_bytes;
  j["all"] = bucket_json(report.all);
  nlohmann::ordered_json buckets = nlohmann::ordered_json::array();
  for (const FctBucket& b : report.buckets) buckets.push_back(bucket_json(b));
  j["by_size"] = buckets;
  return j;
}

void write_flows_fct_csv(const std::string& path, const FctReport& report) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot be written", path));
  out << "id,from,to,size_bytes,start_s,fct_s,ideal_fct_s,slowdown\n";
  // {} prints the shortest text that reads back as the same double.
  for (const FlowFct& f : report.flows)
    out << fmt::format("{},{},{},{},{},{},{},{}\n", f.id, f.from, f.to, f.size_bytes, f.start_s,
                       f.fct_s ? fmt::format("{}", *f.fct_s) : "", f.ideal_fct_s,
                       f.slowdown ? fmt::format("{}", *f.slowdown) : "");
  if (!out) throw std::runtime_error(fmt::format("{}: cannot be written", path));
}

}  // namespace fcswitch::lab

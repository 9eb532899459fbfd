#include "workload/fct_summary.h"

#include <algorithm>
#include <stdexcept>

#include "workload/ideal_fct.h"
#include "workload/nearest_rank_percentile.h"

namespace fcswitch::workload {

std::vector<SizeBucketStats> summarize_by_size(const std::vector<FlowRecord>& flows,
                                               std::span<const uint64_t> edges_bytes) {
  for (size_t i = 1; i < edges_bytes.size(); ++i) {
    if (edges_bytes[i] <= edges_bytes[i - 1]) {
      throw std::invalid_argument("summarize_by_size: bucket edges must increase");
    }
  }
  const size_t buckets = edges_bytes.size() + 1;
  std::vector<std::vector<double>> fcts(buckets), slowdowns(buckets);
  for (const FlowRecord& flow : flows) {
    const size_t b = static_cast<size_t>(
        std::upper_bound(edges_bytes.begin(), edges_bytes.end(), flow.size_bytes) -
        edges_bytes.begin());
    fcts[b].push_back(flow.fct_ns);
    slowdowns[b].push_back(slowdown(flow.fct_ns, flow.ideal_fct_ns));
  }
  std::vector<SizeBucketStats> stats(buckets);
  for (size_t b = 0; b < buckets; ++b) {
    SizeBucketStats& s = stats[b];
    s.lower_bytes = b == 0 ? 0 : edges_bytes[b - 1];
    s.upper_bytes = b == buckets - 1 ? UINT64_MAX : edges_bytes[b];
    s.count = fcts[b].size();
    if (s.count == 0) continue;
    double fct_sum = 0, slowdown_sum = 0;
    for (double v : fcts[b]) fct_sum += v;
    for (double v : slowdowns[b]) slowdown_sum += v;
    s.mean_fct_ns = fct_sum / static_cast<double>(s.count);
    s.mean_slowdown = slowdown_sum / static_cast<double>(s.count);
    s.p99_fct_ns = nearest_rank_percentile(std::move(fcts[b]), 99);
    s.p99_slowdown = nearest_rank_percentile(std::move(slowdowns[b]), 99);
  }
  return stats;
}

}  // namespace fcswitch::workload

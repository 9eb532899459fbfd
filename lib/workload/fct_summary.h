#pragma once
// FCT statistics by flow-size bucket, the way the papers plot them (Pyrrha Figs. 11–13: FCT by
// size; GFC Fig. 17: average slowdown): count, mean and p99 of FCT and of slowdown per bucket.
// p99 is the nearest-rank percentile (nearest_rank_percentile.h).

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace fcswitch::workload {

struct FlowRecord {
  uint64_t size_bytes = 0;
  double fct_ns = 0;
  double ideal_fct_ns = 0;  // ideal_fct.h
};

struct SizeBucketStats {
  uint64_t lower_bytes = 0;  // inclusive
  uint64_t upper_bytes = 0;  // exclusive; UINT64_MAX for the last bucket
  uint64_t count = 0;
  // 0 when the bucket is empty.
  double mean_fct_ns = 0;
  double p99_fct_ns = 0;
  double mean_slowdown = 0;
  double p99_slowdown = 0;
};

// Bucket edges in bytes, decimal units: < 10 KB, 10 KB – 100 KB, 100 KB – 1 MB, ≥ 1 MB.
inline constexpr std::array<uint64_t, 3> kDefaultBucketEdgesBytes = {10'000, 100'000, 1'000'000};

// edges strictly increasing (else std::invalid_argument); edges.size() + 1 buckets:
// [0, e_0), [e_0, e_1), …, [e_last, ∞).
std::vector<SizeBucketStats> summarize_by_size(const std::vector<FlowRecord>& flows,
                                               std::span<const uint64_t> edges_bytes);

}  // namespace fcswitch::workload

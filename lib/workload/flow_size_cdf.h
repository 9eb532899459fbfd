#pragma once
// A flow-size distribution given as CDF points, the way the papers' simulators ship them
// (pFabric, HPCC, Homa, Pyrrha's ns-3 code), read from config/workloads/*.cdf.
//
// File format: one `size_bytes cumulative_probability` pair a line, `#` to the end of a line is
// a comment, blank lines are skipped. Sizes and probabilities are non-decreasing, sizes ≥ 0,
// probabilities in [0, 1], the last probability is 1.
//
// Interpretation (that of ns-3's EmpiricalRandomVariable, which those simulators use): the first
// point is an atom, P(S = s_0) = p_0; between consecutive points the CDF is linear, so S is
// uniform on [s_(i−1), s_i] with probability p_i − p_(i−1). Equal sizes make a jump (an atom),
// equal probabilities a gap no flow falls in.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fcswitch::workload {

struct CdfPoint {
  double size_bytes = 0;
  double cumulative_probability = 0;
};

class FlowSizeCdf {
 public:
  // Parses `text`; `source_name` is the file name used in messages. Throws CdfError with
  // `source_name:line:column: expected …, found …` on the first problem.
  static FlowSizeCdf parse(std::string_view text, std::string_view source_name);
  // Reads and parses a file. Throws CdfError (line 0) when it cannot be read.
  static FlowSizeCdf load(const std::string& path);

  const std::vector<CdfPoint>& points() const { return points_; }
  double min_bytes() const { return points_.front().size_bytes; }
  double max_bytes() const { return points_.back().size_bytes; }

  // E[S] under the interpretation above, exact:
  //   p_0·s_0 + Σ_(i≥1) (p_i − p_(i−1))·(s_(i−1) + s_i)/2.
  double mean_bytes() const { return mean_bytes_; }

  // P(S ≤ size_bytes).
  double probability_at_most(double size_bytes) const;

  // Inverse transform: the size whose CDF is `uniform01` (in [0, 1), from the caller's RNG, e.g.
  // workload::uniform01(rng)), interpolating linearly between points.
  double sample_bytes(double uniform01) const;
  // The same rounded to whole bytes, at least 1 (a flow carries something).
  uint64_t sample_whole_bytes(double uniform01) const;

 private:
  explicit FlowSizeCdf(std::vector<CdfPoint> points);

  std::vector<CdfPoint> points_;
  double mean_bytes_ = 0;
};

}  // namespace fcswitch::workload

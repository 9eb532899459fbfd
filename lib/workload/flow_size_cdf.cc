#include "workload/flow_size_cdf.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "workload/cdf_error.h"

namespace fcswitch::workload {
namespace {

struct Token {
  std::string_view text;
  int column = 0;  // 1-based
};

// The line's whitespace-separated tokens before any `#`.
std::vector<Token> tokens_of(std::string_view line) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (c == '#') break;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != '\r' &&
           line[end] != '#') {
      ++end;
    }
    tokens.push_back({line.substr(i, end - i), static_cast<int>(i) + 1});
    i = end;
  }
  return tokens;
}

std::string format_number(double value) {
  std::ostringstream out;
  out.precision(12);
  out << value;
  return out.str();
}

class Located {
 public:
  explicit Located(std::string_view source) : source_(source) {}
  [[noreturn]] void fail(int line, int column, const std::string& expected,
                         std::string_view found) const {
    throw CdfError(std::string(source_) + ":" + std::to_string(line) + ":" +
                       std::to_string(column) + ": expected " + expected + ", found " +
                       std::string(found),
                   line, column);
  }

 private:
  std::string_view source_;
};

// A finite decimal number, the whole token (std::from_chars: no locale, no leading '+').
bool parse_number(std::string_view text, double& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && std::isfinite(value);
}

}  // namespace

FlowSizeCdf FlowSizeCdf::parse(std::string_view text, std::string_view source_name) {
  const Located at(source_name);
  std::vector<CdfPoint> points;
  int line_number = 0;
  int last_probability_line = 0, last_probability_column = 0, last_size_column = 0;
  std::string_view last_probability_text, last_size_text;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    ++line_number;
    start = end + 1;

    const auto tokens = tokens_of(line);
    if (tokens.empty()) continue;
    double size_bytes = 0, probability = 0;
    if (!parse_number(tokens[0].text, size_bytes)) {
      at.fail(line_number, tokens[0].column, "a size_bytes (a number)", tokens[0].text);
    }
    if (size_bytes < 0) {
      at.fail(line_number, tokens[0].column, "a size_bytes >= 0", tokens[0].text);
    }
    if (!points.empty() && size_bytes < points.back().size_bytes) {
      at.fail(
          line_number, tokens[0].column,
          "a size_bytes >= " + format_number(points.back().size_bytes) + " (sizes never decrease)",
          tokens[0].text);
    }
    if (tokens.size() < 2) {
      at.fail(line_number, static_cast<int>(line.size()) + 1,
              "a cumulative_probability after the size", "end of line");
    }
    if (!parse_number(tokens[1].text, probability)) {
      at.fail(line_number, tokens[1].column, "a cumulative_probability (a number)", tokens[1].text);
    }
    if (probability < 0 || probability > 1) {
      at.fail(line_number, tokens[1].column, "a cumulative_probability in [0, 1]", tokens[1].text);
    }
    if (!points.empty() && probability < points.back().cumulative_probability) {
      at.fail(line_number, tokens[1].column,
              "a cumulative_probability >= " + format_number(points.back().cumulative_probability) +
                  " (probabilities never decrease)",
              tokens[1].text);
    }
    if (tokens.size() > 2) {
      at.fail(line_number, tokens[2].column, "end of line (or a # comment)", tokens[2].text);
    }
    points.push_back({size_bytes, probability});
    last_probability_line = line_number;
    last_probability_column = tokens[1].column;
    last_size_column = tokens[0].column;
    last_size_text = tokens[0].text;
    last_probability_text = tokens[1].text;
  }
  if (points.empty()) {
    at.fail(line_number, 1, "at least one `size_bytes cumulative_probability` line", "end of file");
  }
  if (points.back().cumulative_probability != 1.0) {
    at.fail(last_probability_line, last_probability_column,
            "the last cumulative_probability to be 1", last_probability_text);
  }
  // Sizes never decrease: a last size of 0 makes every flow empty, and a load in flows a second
  // (load × rate / mean size) meaningless.
  if (points.back().size_bytes <= 0) {
    at.fail(last_probability_line, last_size_column, "a last size_bytes above 0", last_size_text);
  }
  return FlowSizeCdf(std::move(points));
}

FlowSizeCdf FlowSizeCdf::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw CdfError(path + ":0:0: expected a readable flow-size CDF file, found none", 0, 0);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

FlowSizeCdf::FlowSizeCdf(std::vector<CdfPoint> points) : points_(std::move(points)) {
  double mean = points_.front().cumulative_probability * points_.front().size_bytes;
  for (size_t i = 1; i < points_.size(); ++i) {
    const CdfPoint& a = points_[i - 1];
    const CdfPoint& b = points_[i];
    mean +=
        (b.cumulative_probability - a.cumulative_probability) * (a.size_bytes + b.size_bytes) / 2;
  }
  mean_bytes_ = mean;
}

double FlowSizeCdf::probability_at_most(double size_bytes) const {
  // The first point past size_bytes; the one before it is the last at or below, and (the
  // probabilities never decreasing) the highest of any equal sizes.
  const auto next =
      std::upper_bound(points_.begin(), points_.end(), size_bytes,
                       [](double size, const CdfPoint& p) { return size < p.size_bytes; });
  if (next == points_.begin()) return 0;
  if (next == points_.end()) return 1;
  const CdfPoint& a = *(next - 1);
  const CdfPoint& b = *next;
  return a.cumulative_probability + (b.cumulative_probability - a.cumulative_probability) *
                                        (size_bytes - a.size_bytes) / (b.size_bytes - a.size_bytes);
}

double FlowSizeCdf::sample_bytes(double uniform01) const {
  // The first point whose probability reaches u: u ≤ p_0 falls on the atom; otherwise
  // p_(i−1) < u ≤ p_i, so the segment has a positive height and the division is safe.
  const auto hit =
      std::lower_bound(points_.begin(), points_.end(), uniform01,
                       [](const CdfPoint& p, double u) { return p.cumulative_probability < u; });
  if (hit == points_.begin()) return points_.front().size_bytes;
  if (hit == points_.end()) return points_.back().size_bytes;  // u > 1: not from uniform01
  const CdfPoint& a = *(hit - 1);
  const CdfPoint& b = *hit;
  return a.size_bytes + (b.size_bytes - a.size_bytes) * (uniform01 - a.cumulative_probability) /
                            (b.cumulative_probability - a.cumulative_probability);
}

uint64_t FlowSizeCdf::sample_whole_bytes(double uniform01) const {
  const double bytes = std::round(sample_bytes(uniform01));
  return bytes < 1 ? 1 : static_cast<uint64_t>(bytes);
}

}  // namespace fcswitch::workload

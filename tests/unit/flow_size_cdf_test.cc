// FlowSizeCdf: the shipped workload files parse, bad files are refused with file:line:column,
// the mean is exact, and inverse-transform sampling reproduces the file.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "workload/cdf_error.h"
#include "workload/flow_size_cdf.h"
#include "workload/uniform_random.h"

namespace fcswitch::workload {
namespace {

const std::string kDir = FCSWITCH_WORKLOAD_DIR;

FlowSizeCdf load_workload(const std::string& name) {
  return FlowSizeCdf::load(kDir + "/" + name);
}

TEST(FlowSizeCdf, EveryShippedWorkloadParses) {
  // The papers' workloads (config/workloads/*.cdf): each ends at 1 and has a positive mean.
  for (const char* name : {"enterprise.cdf", "web-search.cdf", "data-mining.cdf", "hadoop.cdf",
                           "memcached.cdf", "web-server.cdf"}) {
    SCOPED_TRACE(name);
    const FlowSizeCdf cdf = load_workload(name);
    EXPECT_GE(cdf.points().size(), 8u);
    EXPECT_EQ(cdf.points().back().cumulative_probability, 1.0);
    EXPECT_GT(cdf.mean_bytes(), 0);
  }
  // Means the sources state: data mining 5116.6 packets of 1460 B (Pyrrha's code: 5116),
  // web search ≈ 1141 packets (Pyrrha's code: 1138).
  EXPECT_NEAR(load_workload("data-mining.cdf").mean_bytes(), 5116.6 * 1460, 1);
  EXPECT_NEAR(load_workload("web-search.cdf").mean_bytes(), 1665830.8, 0.5);
}

TEST(FlowSizeCdf, MeanIsExactForThePiecewiseLinearCdf) {
  // Atom of 0.25 at 100 B, then uniform on [100, 300] (0.5), then uniform on [300, 1000]
  // (0.25): 0.25·100 + 0.5·200 + 0.25·650 = 287.5.
  const FlowSizeCdf cdf =
      FlowSizeCdf::parse("# comment\n100 0.25\n300 0.75  # trailing\n\n1000 1\n", "t.cdf");
  EXPECT_DOUBLE_EQ(cdf.mean_bytes(), 287.5);
  EXPECT_DOUBLE_EQ(cdf.sample_bytes(0.0), 100);
  EXPECT_DOUBLE_EQ(cdf.sample_bytes(0.25), 100);
  EXPECT_DOUBLE_EQ(cdf.sample_bytes(0.5), 200);
  EXPECT_DOUBLE_EQ(cdf.sample_bytes(0.875), 650);
  EXPECT_DOUBLE_EQ(cdf.probability_at_most(99), 0);
  EXPECT_DOUBLE_EQ(cdf.probability_at_most(200), 0.5);
  EXPECT_DOUBLE_EQ(cdf.probability_at_most(1000), 1);
  EXPECT_EQ(cdf.sample_whole_bytes(0.0), 100u);
}

void expect_refused(const std::string& text, int line, int column, const std::string& part) {
  SCOPED_TRACE(text);
  try {
    FlowSizeCdf::parse(text, "bad.cdf");
    ADD_FAILURE() << "accepted";
  } catch (const CdfError& e) {
    EXPECT_EQ(e.line(), line);
    EXPECT_EQ(e.column(), column);
    const std::string prefix =
        "bad.cdf:" + std::to_string(line) + ":" + std::to_string(column) + ": expected ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(FlowSizeCdf, RefusesBadFilesWithLineAndColumn) {
  // Probability going down on line 3, column 7.
  expect_refused("100 0.5\n200 0.7\n300   0.6\n400 1\n", 3, 7, "found 0.6");
  // Size going down on line 2, column 2 (after a leading space).
  expect_refused("100 0.5\n 50 0.7\n400 1\n", 2, 2, "found 50");
  // Not ending at 1: pointed at the last probability.
  expect_refused("# header\n100 0.5\n200 0.97\n", 3, 5, "the last cumulative_probability to be 1");
  // A garbage token.
  expect_refused("100 0.5\n2x0 0.7\n400 1\n", 2, 1, "found 2x0");
  expect_refused("100 0.5\n200 abc\n400 1\n", 2, 5, "found abc");
  // Negative size, probability above 1, a third column, a missing probability, nothing at all.
  expect_refused("-5 0.5\n400 1\n", 1, 1, "size_bytes >= 0, found -5");
  expect_refused("100 1.5\n", 1, 5, "in [0, 1], found 1.5");
  expect_refused("100 0.5 7\n400 1\n", 1, 9, "end of line");
  expect_refused("100 0.5\n200\n", 2, 4, "found end of line");
  expect_refused("# only a comment\n", 2, 1, "found end of file");
  // Only empty flows: no mean to draw a load from (pointed at the last size).
  expect_refused("0 0.5\n0 1\n", 2, 1, "a last size_bytes above 0, found 0");
}

TEST(FlowSizeCdf, LoadNamesTheFileItCannotRead) {
  try {
    FlowSizeCdf::load("/nonexistent/x.cdf");
    ADD_FAILURE() << "accepted";
  } catch (const CdfError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/x.cdf:0:0: expected", 0), 0u);
  }
}

TEST(FlowSizeCdf, SampledMeanOfWebSearchIsWithinTwoPercent) {
  const FlowSizeCdf cdf = load_workload("web-search.cdf");
  std::mt19937_64 rng(20240601);
  constexpr int kSamples = 200'000;
  double sum = 0;
  for (int i = 0; i < kSamples; ++i)
    sum += static_cast<double>(cdf.sample_whole_bytes(uniform01(rng)));
  EXPECT_NEAR(sum / kSamples / cdf.mean_bytes(), 1.0, 0.02);
}

TEST(FlowSizeCdf, EmpiricalCdfOfSamplesMatchesTheFile) {
  for (const char* name : {"web-search.cdf", "enterprise.cdf", "memcached.cdf"}) {
    SCOPED_TRACE(name);
    const FlowSizeCdf cdf = load_workload(name);
    std::mt19937_64 rng(7);
    std::vector<double> samples(200'000);
    for (double& s : samples) s = cdf.sample_bytes(uniform01(rng));
    std::sort(samples.begin(), samples.end());
    for (const CdfPoint& p : cdf.points()) {
      const double at_most =
          static_cast<double>(std::upper_bound(samples.begin(), samples.end(), p.size_bytes) -
                              samples.begin()) /
          static_cast<double>(samples.size());
      // Against the CDF at that size (the highest probability of equal sizes).
      EXPECT_NEAR(at_most, cdf.probability_at_most(p.size_bytes), 0.01) << p.size_bytes;
    }
  }
}

TEST(FlowSizeCdf, SamplingIsDeterministicForASeed) {
  const FlowSizeCdf cdf = load_workload("hadoop.cdf");
  std::mt19937_64 a(99), b(99);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(cdf.sample_whole_bytes(uniform01(a)), cdf.sample_whole_bytes(uniform01(b)));
  }
}

}  // namespace
}  // namespace fcswitch::workload

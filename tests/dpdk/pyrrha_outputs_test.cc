// Pyrrha's counters and gauges in every output (node/pyrrha_switch_counters.h; issue 20): the
// switch report (text and JSON), /metrics (and promtool, and the dashboard's Pyrrha panels),
// the lab's summary.json and pyrrha.csv, from lab switches that run Pyrrha on an incast
// (tests/lab/pyrrha-incast.toml); and none of it from switches that do not.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lab/lab_network.h"
#include "lab/lab_report.h"
#include "lab/lab_scenario.h"
#include "lab/switch_results.h"
#include "metrics/switch_metrics.h"
#include "node/pyrrha_switch_counters.h"
#include "node/switch_report.h"

namespace fcswitch::lab {
namespace {

const std::string kSource = FCSWITCH_SOURCE_DIR;
const std::string kIncast = kSource + "/tests/lab/pyrrha-incast.toml";
const std::string kCore = "S1";         // the switch whose port towards L3 is the root
constexpr int kSwitches = 4;            // L1, L2, L3, S1
constexpr int kSamples = 51;            // 1 ms at 20 µs, both ends
constexpr int kOneHopBdpBytes = 6'250;  // 10 Gb/s × 5 µs

// The incast with Pyrrha on every switch (what [pyrrha] priority = 3, k_pause = 2, k_resume =
// 1 gives at this link; see the scenario).
LabScenario incast() {
  LabScenario scenario = load_lab_scenario(kIncast, {});
  config::PyrrhaSettings pyrrha;
  pyrrha.priority = 3;
  pyrrha.table.k_pause_bytes = 2 * kOneHopBdpBytes;
  pyrrha.table.k_resume_bytes = kOneHopBdpBytes;
  pyrrha.k_pause_bdp = 2;
  pyrrha.k_resume_bdp = 1;
  pyrrha.one_hop_bdp_bytes = kOneHopBdpBytes;
  for (LabNode& node : scenario.nodes)
    if (!node.host) node.config.pyrrha = pyrrha;
  return scenario;
}

std::string fresh_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("fcswitch_pyrrha_outputs_" + name + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

const SwitchNode& switch_named(const LabNetwork& network, const std::string& name) {
  for (const auto& [n, node] : network.switch_nodes())
    if (n == name) return *node;
  throw std::runtime_error("no switch " + name);
}

// Every row of `node`'s Pyrrha that `reader` may read, by name.
std::map<std::string, uint64_t> rows_of(const SwitchNode& node, PyrrhaReader reader) {
  std::map<std::string, uint64_t> out;
  pyrrha_switch_counters(node, reader, [&](const PyrrhaSwitchCounter& row, uint64_t value) {
    out[std::string(row.counter.name)] = value;
  });
  return out;
}

std::string exposition(const LabNetwork& network) {
  std::vector<metrics::NamedSwitch> named;
  for (const auto& [name, node] : network.switch_nodes()) named.push_back({name, node});
  return prometheus::TextSerializer().Serialize(metrics::collect_switch_metrics(named));
}

std::set<std::string> families(const std::string& text) {
  std::set<std::string> out;
  const std::regex type_line(R"(# TYPE (\S+) )");
  for (std::sregex_iterator it(text.begin(), text.end(), type_line), end; it != end; ++it)
    out.insert((*it)[1]);
  return out;
}

// One run of the incast, shared by the tests below (a lab run is the expensive part): the
// network stays up, its switches readable, with the outputs of its run.
class PyrrhaOutputs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    out_dir_ = new std::string(fresh_dir("incast"));
    network_ = new LabNetwork(incast());
    result_ = new LabResult(network_->run(*out_dir_));
    result_->switches = switch_results(network_->switch_nodes());
  }
  static void TearDownTestSuite() {
    delete result_;
    delete network_;
    std::filesystem::remove_all(*out_dir_);
    delete out_dir_;
  }
  static const SwitchNode& core() { return switch_named(*network_, kCore); }

  static std::string* out_dir_;
  static LabNetwork* network_;
  static LabResult* result_;
};
std::string* PyrrhaOutputs::out_dir_ = nullptr;
LabNetwork* PyrrhaOutputs::network_ = nullptr;
LabResult* PyrrhaOutputs::result_ = nullptr;

// The incast made the core a root: it sent PAUSE upstream (Pyrrha §4.1). The figure every
// output below must carry.
TEST_F(PyrrhaOutputs, TheCoreSelfNominatedAndSentPause) {
  const PyrrhaQueues* queues = core().fwd().pyrrha();
  ASSERT_NE(queues, nullptr);
  EXPECT_GE(queues->messages_sent(pyrrha::MessageKind::kPause), 1u);
  const auto rows = rows_of(core(), PyrrhaReader::kFwdOrStopped);
  EXPECT_EQ(rows.size(), kPyrrhaSwitchCounters.size());
  EXPECT_EQ(rows.at("pause_sent"), queues->messages_sent(pyrrha::MessageKind::kPause));
  EXPECT_EQ(rows.at("max_iqs_in_use"), queues->max_iqs_in_use());
  // The IQ states partition the IQs in use.
  EXPECT_EQ(rows.at("iqs_in_use"),
            rows.at("iqs_paused") + rows.at("iqs_soft_merging") + rows.at("iqs_resumed"));
  // /metrics' rows are the ones any thread may read: not the bytes FWD keeps for itself.
  const auto published = rows_of(core(), PyrrhaReader::kAnyThread);
  EXPECT_EQ(published.size(), kPyrrhaSwitchCounters.size() - 2);
  EXPECT_FALSE(published.contains("held_bytes"));
  EXPECT_FALSE(published.contains("held_packets"));
}

TEST_F(PyrrhaOutputs, SwitchReportHasAPyrrhaSection) {
  const ShutdownCheck check;
  const nlohmann::json report = nlohmann::json::parse(report_json(core(), check));
  ASSERT_TRUE(report.contains("pyrrha")) << report.dump();
  const nlohmann::json& pyrrha = report["pyrrha"];
  EXPECT_EQ(pyrrha["priority"], 3);
  EXPECT_EQ(pyrrha["switch_id"], core().config().pyrrha->switch_id);
  for (const auto& [name, value] : rows_of(core(), PyrrhaReader::kFwdOrStopped))
    EXPECT_EQ(pyrrha.value(name, uint64_t{0} - 1), value) << name;
  EXPECT_GE(pyrrha["pause_sent"].get<uint64_t>(), 1u);

  const std::string text = report_text(core(), check);
  EXPECT_NE(text.find(fmt::format("pyrrha, priority 3, switch id {}:",
                                  core().config().pyrrha->switch_id)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(fmt::format(" pause_sent={}", pyrrha["pause_sent"].get<uint64_t>())),
            std::string::npos)
      << text;
  for (const PyrrhaSwitchCounter& row : kPyrrhaSwitchCounters)
    EXPECT_NE(text.find(fmt::format(" {}=", row.counter.name)), std::string::npos)
        << row.counter.name;
}

// Every family of the table is exposed, once per switch and label; the values are the
// switch's own; the bytes held (FWD's only) are not.
TEST_F(PyrrhaOutputs, MetricsExposeEveryPyrrhaFamily) {
  const std::string text = exposition(*network_);
  const std::set<std::string> exposed = families(text);
  for (const PyrrhaSwitchCounter& row : kPyrrhaSwitchCounters) {
    const std::string family(row.counter.family);
    if (row.reader == PyrrhaReader::kFwdOrStopped) {
      EXPECT_FALSE(exposed.contains(family)) << family;
      continue;
    }
    EXPECT_TRUE(exposed.contains(family)) << family;
    for (const auto& [name, node] : network_->switch_nodes()) {
      std::string labels = fmt::format("node=\"{}\"", name);
      if (!row.label_name.empty())
        labels += fmt::format(",{}=\"{}\"", row.label_name, row.label_value);
      const uint64_t value =
          rows_of(*node, PyrrhaReader::kAnyThread).at(std::string(row.counter.name));
      EXPECT_NE(text.find(fmt::format("\n{}{{{}}} {}\n", family, labels, value)), std::string::npos)
          << family << "{" << labels << "} " << value;
    }
  }
  EXPECT_EQ(families(text).count("fcswitch_pyrrha_iqs"), 1u);
  EXPECT_NE(text.find(fmt::format(
                "fcswitch_pyrrha_messages_sent_total{{node=\"{}\",kind=\"pause\"}}", kCore)),
            std::string::npos);
}

// promtool (Debian's prometheus package, tools/install-deps.sh) finds nothing wrong with the
// exposition of switches that run Pyrrha: names, types, help, units.
TEST_F(PyrrhaOutputs, PromtoolChecksTheExposition) {
  if (std::system("command -v promtool >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "promtool is not installed (tools/install-deps.sh)";
  const std::string path = *out_dir_ + "/metrics.txt";
  std::ofstream(path) << exposition(*network_);
  const std::string command = "promtool check metrics < " + path + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[512];
  while (size_t n = fread(buffer, 1, sizeof(buffer), pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "");
}

// The dashboard's Pyrrha panels query families the switches expose (the observability test
// checks the others against fcswitch, which cannot run Pyrrha by itself).
TEST_F(PyrrhaOutputs, DashboardPyrrhaPanelsQueryExposedFamilies) {
  std::ifstream in(kSource + "/tools/grafana/fcswitch.json");
  const std::string dashboard((std::istreambuf_iterator<char>(in)), {});
  const std::set<std::string> exposed = families(exposition(*network_));
  std::set<std::string> queried;
  const std::regex name(R"(\bfcswitch_pyrrha_[a-z0-9_]+)");
  for (std::sregex_iterator it(dashboard.begin(), dashboard.end(), name), end; it != end; ++it)
    queried.insert(it->str());
  // Roots active, IQs by state, messages by kind (issue 20's row).
  for (const char* family : {"fcswitch_pyrrha_roots_active", "fcswitch_pyrrha_iqs",
                             "fcswitch_pyrrha_messages_sent_total"})
    EXPECT_TRUE(queried.contains(family)) << family;
  for (const std::string& family : queried) EXPECT_TRUE(exposed.contains(family)) << family;
}

// summary.json: a "pyrrha" object per switch that runs it, with the rows FWD publishes.
TEST_F(PyrrhaOutputs, LabSummaryHasPyrrhaPerSwitch) {
  const nlohmann::ordered_json summary = summary_json(*result_);
  ASSERT_TRUE(summary.contains("switches"));
  ASSERT_EQ(summary["switches"].size(), static_cast<size_t>(kSwitches));
  std::set<std::string> nodes;
  for (const auto& sw : summary["switches"]) {
    nodes.insert(sw["node"].get<std::string>());
    const auto& pyrrha = sw["pyrrha"];
    EXPECT_EQ(pyrrha["priority"], 3);
    const SwitchNode& node = switch_named(*network_, sw["node"].get<std::string>());
    EXPECT_EQ(pyrrha["switch_id"], node.config().pyrrha->switch_id);
    for (const auto& [name, value] : rows_of(node, PyrrhaReader::kAnyThread))
      EXPECT_EQ(pyrrha.value(name, uint64_t{0} - 1), value) << sw["node"] << " " << name;
    EXPECT_FALSE(pyrrha.contains("held_bytes"));
  }
  EXPECT_EQ(nodes, (std::set<std::string>{"L1", "L2", "L3", "S1"}));
  const std::string human = human_summary(*result_);
  EXPECT_NE(
      human.find(fmt::format("pyrrha {} (switch {}):", kCore, core().config().pyrrha->switch_id)),
      std::string::npos)
      << human;
}

// pyrrha.csv: a row per switch at every sample; the core's queues held the incast's excess.
TEST_F(PyrrhaOutputs, LabWritesPyrrhaCsv) {
  const auto rows = read_csv(*out_dir_ + "/pyrrha.csv");
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"time_s", "node", "roots_active", "iqs_in_use",
                                               "iqs_paused", "iqs_soft_merging", "held_bytes"}));
  EXPECT_EQ(rows.size(), 1u + kSamples * kSwitches);
  uint64_t core_max_held = 0;
  std::vector<std::string> last_core;
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 7u);
    if (rows[i][1] != kCore) continue;
    core_max_held = std::max<uint64_t>(core_max_held, std::stoull(rows[i][6]));
    last_core = rows[i];
  }
  // Twice the line into one: past K_pause in the core's queues, long before the end.
  EXPECT_GT(core_max_held, 2u * kOneHopBdpBytes);
  // The last sample is at the end of the run: the gauges the summary has.
  ASSERT_FALSE(last_core.empty());
  EXPECT_EQ(last_core[0], "0.001000");
  EXPECT_EQ(std::stoull(last_core[2]), core().fwd().pyrrha()->roots_active());
  EXPECT_EQ(std::stoull(last_core[3]), core().fwd().pyrrha()->iqs_in_use());
}

// A scenario without Pyrrha: no section, family, summary object or pyrrha.csv.
TEST(PyrrhaOutputsAbsent, NothingOfPyrrhaWhereNoSwitchRunsIt) {
  const std::string out_dir = fresh_dir("none");
  LabNetwork network(load_lab_scenario(kSource + "/tests/lab/flood-no-route.toml", {}));
  LabResult result = network.run(out_dir);
  result.switches = switch_results(network.switch_nodes());
  EXPECT_TRUE(result.switches.empty());
  EXPECT_FALSE(summary_json(result).contains("switches"));
  EXPECT_FALSE(std::filesystem::exists(out_dir + "/pyrrha.csv"));
  EXPECT_TRUE(std::filesystem::exists(out_dir + "/queues.csv"));
  const SwitchNode& node = switch_named(network, "S1");
  EXPECT_FALSE(nlohmann::json::parse(report_json(node, {})).contains("pyrrha"));
  EXPECT_EQ(report_text(node, {}).find("pyrrha"), std::string::npos);
  const std::string text = exposition(network);
  EXPECT_EQ(text.find("fcswitch_pyrrha_"), std::string::npos);
  EXPECT_EQ(pyrrha_held_bytes(node), 0u);
  std::filesystem::remove_all(out_dir);
}

}  // namespace
}  // namespace fcswitch::lab

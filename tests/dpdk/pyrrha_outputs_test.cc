// Pyrrha's counters and gauges in every output (node/pyrrha_switch_counters.h; issue 20): the
// switch report (text and JSON), /metrics (and promtool, and the dashboard's Pyrrha panels),
// the lab's summary.json and pyrrha.csv, from lab switches that run Pyrrha on an incast
// (tests/lab/pyrrha-incast.toml: the core is the root, the ToRs hold the incast in an IQ each);
// and none of it from switches that do not.

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
#include "lab/switch_results.h"
#include "metrics/switch_metrics.h"
#include "node/pyrrha_switch_counters.h"
#include "node/switch_report.h"
#include "results/lab_report.h"
#include "scenario/lab_scenario.h"
#include "scenario/scenario_file.h"

namespace fcswitch::lab {
namespace {

const std::string kSource = FCSWITCH_SOURCE_DIR;
const std::string kIncast = kSource + "/tests/lab/pyrrha-incast.toml";
const std::string kCore = "S1";  // the switch whose port towards L3 is the root
constexpr int kSwitches = 4;     // L1, L2, L3, S1
constexpr int kSamples = 51;     // 1 ms at 20 µs, both ends

LabScenario incast() {
  return load_lab_scenario(kIncast, {});
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

// Where a row's value is in a JSON object of Pyrrha's rows: under its group by label value,
// or under its name (node/pyrrha_switch_counters.h); -1 when it is not there.
template <typename Json>
uint64_t json_row(const Json& pyrrha, const PyrrhaSwitchCounter& row) {
  constexpr uint64_t kMissing = ~uint64_t{0};
  if (row.group.empty()) return pyrrha.value(std::string(row.counter.name), kMissing);
  if (!pyrrha.contains(std::string(row.group))) return kMissing;
  return pyrrha[std::string(row.group)].value(std::string(row.label_value), kMissing);
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
  static const SwitchNode& node(const std::string& name) { return switch_named(*network_, name); }
  static const SwitchNode& core() { return node(kCore); }

  static std::string* out_dir_;
  static LabNetwork* network_;
  static LabResult* result_;
};
std::string* PyrrhaOutputs::out_dir_ = nullptr;
LabNetwork* PyrrhaOutputs::network_ = nullptr;
LabResult* PyrrhaOutputs::result_ = nullptr;

// What the outputs below must carry: the core, the root, paused its upstreams (Pyrrha §4.1);
// each ToR received PAUSE and held the incast in one isolation queue, and paused its host in
// turn (§4.4). The table's rows are the switch's own values.
TEST_F(PyrrhaOutputs, TheCoreIsTheRootAndTheTorsIsolateTheIncast) {
  const auto core_rows = rows_of(core(), PyrrhaReader::kLive);
  EXPECT_EQ(core_rows.size(), kPyrrhaSwitchCounters.size());
  EXPECT_GE(core_rows.at("pause_sent"), 2u);  // to L1 and to L2
  EXPECT_EQ(core_rows.at("pause_sent"),
            core().fwd().pyrrha()->messages_sent(pyrrha::MessageKind::kPause));
  EXPECT_EQ(core_rows.at("max_iqs_in_use"), 0u);  // nothing downstream paused it
  for (const char* tor : {"L1", "L2"}) {
    const auto rows = rows_of(node(tor), PyrrhaReader::kAnyThread);
    EXPECT_GE(rows.at("pause_received"), 1u) << tor;
    EXPECT_GE(rows.at("pause_sent"), 1u) << tor;  // to its host
    EXPECT_EQ(rows.at("max_iqs_in_use"), 1u) << tor;
    EXPECT_EQ(rows.at("max_iqs_on_a_port"), 1u) << tor;
    EXPECT_EQ(rows.at("roots_active"), 1u) << tor;
    EXPECT_EQ(rows.at("max_roots_active"), 1u) << tor;
    // The IQ states partition the IQs in use.
    EXPECT_EQ(rows.at("iqs_in_use"),
              rows.at("iqs_paused") + rows.at("iqs_soft_merging") + rows.at("iqs_resumed"))
        << tor;
  }
  // The lab's summary takes the published rows, not the queues' live state (which /metrics and
  // the report read too).
  const auto published = rows_of(core(), PyrrhaReader::kAnyThread);
  EXPECT_EQ(published.size(), kPyrrhaSwitchCounters.size() - 2);
  EXPECT_FALSE(published.contains("held_bytes"));
  EXPECT_FALSE(published.contains("held_packets"));
}

TEST_F(PyrrhaOutputs, SwitchReportHasAPyrrhaSection) {
  const ShutdownCheck check;
  const nlohmann::json report = nlohmann::json::parse(report_json(node("L1"), check));
  ASSERT_TRUE(report.contains("pyrrha")) << report.dump();
  const nlohmann::json& pyrrha = report["pyrrha"];
  EXPECT_EQ(pyrrha["priority"], 3);
  EXPECT_EQ(pyrrha["switch_id"], node("L1").config().pyrrha->switch_id);
  pyrrha_switch_counters(node("L1"), PyrrhaReader::kLive,
                         [&](const PyrrhaSwitchCounter& row, uint64_t value) {
                           EXPECT_EQ(json_row(pyrrha, row), value) << row.counter.name;
                         });
  // The messages by kind, the IQs by state: one object each.
  EXPECT_EQ(pyrrha["messages_received"].size(), pyrrha::kMessageKinds);
  EXPECT_GE(pyrrha["messages_received"]["pause"].get<uint64_t>(), 1u);
  EXPECT_EQ(pyrrha["iqs"].size(), 3u);
  EXPECT_EQ(pyrrha["max_iqs_in_use"], 1);

  const std::string text = report_text(node("L1"), check);
  EXPECT_NE(text.find(fmt::format("pyrrha, priority 3, switch id {}:",
                                  node("L1").config().pyrrha->switch_id)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(fmt::format(" pause_received={}",
                                  pyrrha["messages_received"]["pause"].get<uint64_t>())),
            std::string::npos)
      << text;
  for (const PyrrhaSwitchCounter& row : kPyrrhaSwitchCounters)
    EXPECT_NE(text.find(fmt::format(" {}=", row.counter.name)), std::string::npos)
        << row.counter.name;
}

// Every family of the table is exposed, once per switch and label — the queues' live state
// (held packets and bytes) too; the values are the switch's own.
TEST_F(PyrrhaOutputs, MetricsExposeEveryPyrrhaFamily) {
  const std::string text = exposition(*network_);
  const std::set<std::string> exposed = families(text);
  for (const PyrrhaSwitchCounter& row : kPyrrhaSwitchCounters) {
    const std::string family(row.counter.family);
    EXPECT_TRUE(exposed.contains(family)) << family;
    for (const auto& [name, node] : network_->switch_nodes()) {
      std::string labels = fmt::format("node=\"{}\"", name);
      if (!row.label_name.empty())
        labels += fmt::format(",{}=\"{}\"", row.label_name, row.label_value);
      const uint64_t value = rows_of(*node, PyrrhaReader::kLive).at(std::string(row.counter.name));
      EXPECT_NE(text.find(fmt::format("\n{}{{{}}} {}\n", family, labels, value)), std::string::npos)
          << family << "{" << labels << "} " << value;
    }
  }
  const uint64_t paused = rows_of(node("L1"), PyrrhaReader::kAnyThread).at("pause_received");
  EXPECT_NE(
      text.find(fmt::format(
          "\nfcswitch_pyrrha_messages_received_total{{node=\"L1\",kind=\"pause\"}} {}\n", paused)),
      std::string::npos);
  EXPECT_NE(text.find("\nfcswitch_pyrrha_iqs_in_use_max{node=\"L2\"} 1\n"), std::string::npos);
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
// checks the others against an fcswitch process without Pyrrha).
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
    const SwitchNode& n = node(sw["node"].get<std::string>());
    EXPECT_EQ(pyrrha["switch_id"], n.config().pyrrha->switch_id);
    pyrrha_switch_counters(
        n, PyrrhaReader::kAnyThread, [&](const PyrrhaSwitchCounter& row, uint64_t value) {
          EXPECT_EQ(json_row(pyrrha, row), value) << sw["node"] << " " << row.counter.name;
        });
    EXPECT_FALSE(pyrrha.contains("held_bytes"));
  }
  EXPECT_EQ(nodes, (std::set<std::string>{"L1", "L2", "L3", "S1"}));
  // Where tests/integration/pyrrha_testbed_lab.py reads the messages a switch sent, by kind.
  for (const auto& sw : summary["switches"])
    if (sw["node"] == kCore) {
      EXPECT_GE(sw["pyrrha"]["messages_sent"]["pause"].get<uint64_t>(), 2u);
    }
  const std::string human = human_summary(*result_);
  EXPECT_NE(
      human.find(fmt::format("pyrrha {} (switch {}):", kCore, core().config().pyrrha->switch_id)),
      std::string::npos)
      << human;
}

// pyrrha.csv: a row per switch at every sample (Pyrrha Fig. 7's IQs in use against roots):
// each ToR's root and its IQ, paused at times; the core's queues never far past K_pause.
TEST_F(PyrrhaOutputs, LabWritesPyrrhaCsv) {
  const auto rows = read_csv(*out_dir_ + "/pyrrha.csv");
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0],
            (std::vector<std::string>{"time_s", "node", "roots_active", "iqs_in_use", "iqs_paused",
                                      "iqs_soft_merging", "held_bytes", "self_nominated_ports"}));
  EXPECT_EQ(rows.size(), 1u + kSamples * kSwitches);
  std::map<std::string, uint64_t> max_roots, max_iqs, max_paused, max_held, max_self;
  std::map<std::string, std::vector<std::string>> last;
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 8u);
    const std::string& n = rows[i][1];
    max_roots[n] = std::max<uint64_t>(max_roots[n], std::stoull(rows[i][2]));
    max_iqs[n] = std::max<uint64_t>(max_iqs[n], std::stoull(rows[i][3]));
    max_paused[n] = std::max<uint64_t>(max_paused[n], std::stoull(rows[i][4]));
    max_held[n] = std::max<uint64_t>(max_held[n], std::stoull(rows[i][6]));
    max_self[n] = std::max<uint64_t>(max_self[n], std::stoull(rows[i][7]));
    last[n] = rows[i];
  }
  for (const char* tor : {"L1", "L2"}) {
    EXPECT_EQ(max_roots[tor], 1u) << tor;
    EXPECT_EQ(max_iqs[tor], 1u) << tor;
    EXPECT_EQ(max_paused[tor], 1u) << tor;
  }
  EXPECT_EQ(max_iqs[kCore], 0u);
  EXPECT_GT(max_held[kCore], 0u);
  EXPECT_EQ(max_self[kCore], 1u);  // its port to the incast's ToR, the root at first
  // The last sample is at the end of the run: the gauges the summary has.
  for (const auto& [n, row] : last) {
    EXPECT_EQ(row[0], "0.001000") << n;
    EXPECT_EQ(std::stoull(row[2]), node(n).fwd().pyrrha()->roots_active()) << n;
    EXPECT_EQ(std::stoull(row[3]), node(n).fwd().pyrrha()->iqs_in_use()) << n;
    EXPECT_EQ(std::stoull(row[4]), node(n).fwd().pyrrha()->iqs_paused()) << n;
  }
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

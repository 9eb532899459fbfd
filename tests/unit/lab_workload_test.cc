// The lab's [[workloads]] (read with located errors, expanded into flows) and its FCT report:
// Poisson background and Pyrrha incasts (Pyrrha §6), other-rack destinations (GFC §6.2.3),
// ideal FCT, slowdown and size buckets.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "config/config_problems.h"
#include "config/table_reader.h"
#include "results/flow_fct_report.h"
#include "scenario/workload_flows.h"
#include "scenario/workload_hosts.h"
#include "scenario/workload_spec.h"
#include "workload/flow_size_cdf.h"

namespace fcswitch::lab {
namespace {

constexpr uint64_t kTenGbps = 10'000'000'000;

// `racks` racks of `per_rack` hosts H0, H1, …; host i is node 100 + i, its rack node 1000 + r,
// so that node indices, host indices and rack ids cannot be mixed up unnoticed.
HostInfo make_hosts(int racks, int per_rack, uint64_t rate_bps = kTenGbps) {
  HostInfo info;
  for (int r = 0; r < racks; ++r)
    for (int i = 0; i < per_rack; ++i) {
      const int h = r * per_rack + i;
      info.hosts.push_back({100 + h, "H" + std::to_string(h), 1000 + r, rate_bps});
    }
  return info;
}

int rack_of_node(const HostInfo& info, int node) {
  for (const WorkloadHost& h : info.hosts)
    if (h.node == node) return h.rack;
  return -1;
}

std::shared_ptr<const workload::FlowSizeCdf> web_search() {
  return std::make_shared<const workload::FlowSizeCdf>(
      workload::FlowSizeCdf::load(FCSWITCH_WORKLOAD_DIR "/web-search.cdf"));
}

WorkloadSpec poisson(double load) {
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kPoisson;
  spec.sizes = web_search();
  spec.load = load;
  return spec;
}

bool same_flows(const std::vector<FlowSpec>& a, const std::vector<FlowSpec>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].src != b[i].src || a[i].dst != b[i].dst || a[i].size_bytes != b[i].size_bytes ||
        a[i].start_ns != b[i].start_ns)
      return false;
  return true;
}

TEST(WorkloadHosts, RackIsTheSwitchAHostHangsOff) {
  const std::vector<std::string> names{"S1", "A", "B", "S2", "C", "lonely"};
  const std::vector<bool> host{false, true, true, false, true, true};
  std::vector<LabLinkSpec> links{{{0, 0}, {1, 0}, kTenGbps, 0},
                                 {{2, 0}, {0, 1}, 25'000'000'000, 0},
                                 {{0, 2}, {3, 0}, kTenGbps, 0},
                                 {{3, 1}, {4, 0}, 40'000'000'000, 0}};
  const HostInfo info = host_info_from_links(names, host, links);
  ASSERT_EQ(info.hosts.size(), 3u);  // "lonely" has no link
  EXPECT_EQ(info.hosts[0].name, "A");
  EXPECT_EQ(info.hosts[0].rack, 0);
  EXPECT_EQ(info.hosts[1].node, 2);
  EXPECT_EQ(info.hosts[1].rack, 0);
  EXPECT_EQ(info.hosts[1].link_rate_bps, 25'000'000'000u);
  EXPECT_EQ(info.hosts[2].rack, 3);
  EXPECT_EQ(info.hosts[2].link_rate_bps, 40'000'000'000u);
  EXPECT_EQ(info.find("C"), 2);
  EXPECT_EQ(info.find("S1"), -1);
}

// Pyrrha §6: each host's arrivals load its link to `load` on average; GFC §6.2.3: every
// destination is in another rack.
TEST(WorkloadFlows, PoissonLoadsEachHostAndSendsToOtherRacks) {
  const HostInfo hosts = make_hosts(4, 4);
  const WorkloadSpec spec = poisson(0.5);
  const uint64_t duration_ns = 40 * kNsPerSecond;
  const auto flows = expand_workloads({spec}, hosts, duration_ns, 7);

  const double mean = spec.sizes->mean_bytes();
  const double expected_per_host = 0.5 * kTenGbps * 40 / (8 * mean);  // ≈ 15000
  ASSERT_GT(expected_per_host, 10'000);
  std::map<int, int> per_source;
  double total_bytes = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    const FlowSpec& f = flows[i];
    ++per_source[f.src];
    total_bytes += static_cast<double>(f.size_bytes);
    EXPECT_NE(rack_of_node(hosts, f.src), rack_of_node(hosts, f.dst));
    EXPECT_NE(rack_of_node(hosts, f.dst), -1);
    EXPECT_LT(f.start_ns, duration_ns);
    EXPECT_EQ(f.frame_bytes, 1514u);
    EXPECT_EQ(f.stop_ns, kNeverTicks);
    if (i > 0) {
      EXPECT_LE(flows[i - 1].start_ns, f.start_ns);
    }
  }
  ASSERT_EQ(per_source.size(), 16u);
  for (const auto& [src, count] : per_source)
    EXPECT_NEAR(count, expected_per_host, 0.03 * expected_per_host) << "host node " << src;
  EXPECT_NEAR(total_bytes / static_cast<double>(flows.size()), mean, 0.03 * mean);
}

TEST(WorkloadFlows, DeterministicInTheSeed) {
  const HostInfo hosts = make_hosts(2, 2);
  const std::vector<WorkloadSpec> specs{poisson(0.3)};
  const uint64_t duration_ns = 200'000'000;
  const auto a = expand_workloads(specs, hosts, duration_ns, 1);
  const auto b = expand_workloads(specs, hosts, duration_ns, 1);
  const auto c = expand_workloads(specs, hosts, duration_ns, 2);
  ASSERT_GT(a.size(), 50u);
  EXPECT_TRUE(same_flows(a, b));
  EXPECT_FALSE(same_flows(a, c));
  // The entry's seed offset is a seed of its own too.
  std::vector<WorkloadSpec> offset = specs;
  offset[0].seed_offset = 5;
  EXPECT_FALSE(same_flows(a, expand_workloads(offset, hosts, duration_ns, 1)));
}

TEST(WorkloadFlows, PoissonKeepsToItsHostsAndWindow) {
  const HostInfo hosts = make_hosts(3, 3);
  WorkloadSpec spec = poisson(0.4);
  spec.hosts = {"H0", "H1", "H3", "H4"};  // racks 1000 and 1001
  spec.start_ns = 100'000'000;
  spec.stop_ns = 300'000'000;
  spec.dscp = 24;
  spec.frame_bytes = 1024;
  std::vector<size_t> entry;
  const auto flows = expand_workloads({spec}, hosts, 1'000'000'000, 3, &entry);
  ASSERT_GT(flows.size(), 20u);
  ASSERT_EQ(entry.size(), flows.size());
  const std::set<int> allowed{100, 101, 103, 104};
  for (const FlowSpec& f : flows) {
    EXPECT_TRUE(allowed.count(f.src));
    EXPECT_TRUE(allowed.count(f.dst));
    EXPECT_GE(f.start_ns, 100'000'000u);
    EXPECT_LT(f.start_ns, 300'000'000u);
    EXPECT_EQ(f.dscp, 24);
    EXPECT_EQ(f.frame_bytes, 1024u);
  }
  for (size_t e : entry) EXPECT_EQ(e, 0u);
}

// Pyrrha §6 incastmix: every period `senders` flows of 30–40 MTUs from other racks to one
// destination; the period loads the destination's link to `load`.
TEST(WorkloadFlows, IncastSendersPerPeriodAtTheLoad) {
  const HostInfo hosts = make_hosts(4, 4);
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kIncast;
  spec.senders = 8;
  spec.load = 0.5;
  // 8 × 35 × 1514 bytes × 8 / (0.5 × 10 Gb/s) = 678.272 µs.
  const uint64_t period_ns = 678'272;
  EXPECT_EQ(incast_period_of(spec, hosts), period_ns);
  const uint64_t duration_ns = 10'000'000;
  const auto flows = expand_workloads({spec}, hosts, duration_ns, 11);
  const uint64_t incasts = (duration_ns + period_ns - 1) / period_ns;  // 15
  ASSERT_EQ(flows.size(), incasts * 8);
  std::map<uint64_t, std::vector<FlowSpec>> by_incast;
  for (const FlowSpec& f : flows) by_incast[f.start_ns / period_ns].push_back(f);
  ASSERT_EQ(by_incast.size(), incasts);
  double bytes = 0;
  for (const auto& [i, group] : by_incast) {
    ASSERT_EQ(group.size(), 8u) << "incast " << i;
    // Destinations in turn: the first host of each rack (nodes 100, 104, 108, 112).
    const int dst = 100 + 4 * static_cast<int>(i % 4);
    for (const FlowSpec& f : group) {
      EXPECT_EQ(f.dst, dst);
      EXPECT_NE(rack_of_node(hosts, f.src), rack_of_node(hosts, dst));
      EXPECT_EQ(f.size_bytes % 1514, 0u);
      EXPECT_GE(f.size_bytes, 30u * 1514);
      EXPECT_LE(f.size_bytes, 40u * 1514);
      EXPECT_GE(f.start_ns, i * period_ns);
      EXPECT_LT(f.start_ns, i * period_ns + 100);  // Pyrrha's code: up to 100 ns of jitter
      bytes += static_cast<double>(f.size_bytes);
    }
  }
  // The destinations' load, averaged over the incasts: near 0.5 (sizes are random).
  const double load = bytes * 8 / (static_cast<double>(incasts * period_ns) * 1e-9 * kTenGbps);
  EXPECT_NEAR(load, 0.5, 0.05);
}

TEST(WorkloadFlows, IncastPeriodFollowsTheDestinationsLink) {
  HostInfo hosts = make_hosts(2, 2);
  hosts.hosts[0].link_rate_bps = 4 * kTenGbps;  // H0
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kIncast;
  spec.senders = 8;
  spec.load = 0.5;
  spec.to = {"H0"};
  EXPECT_EQ(incast_period_of(spec, hosts), 678'272u / 4);
  spec.to = {"H0", "H2"};  // the slowest destination sets it: no link above `load`
  EXPECT_EQ(incast_period_of(spec, hosts), 678'272u);
  spec.period_ns = 5000;
  EXPECT_EQ(incast_period_of(spec, hosts), 5000u);
}

TEST(WorkloadFlows, IncastWithAGivenPeriodSizeAndDestination) {
  const HostInfo hosts = make_hosts(2, 3);
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kIncast;
  spec.senders = 3;
  spec.size_bytes = 64'000;
  spec.period_ns = 1'000'000;
  spec.jitter_ns = 0;
  spec.to = {"H4"};
  spec.start_ns = 500'000;
  const auto flows = expand_workloads({spec}, hosts, 4'000'000, 1);
  ASSERT_EQ(flows.size(), 4u * 3);  // incasts at 0.5, 1.5, 2.5, 3.5 ms
  for (size_t i = 0; i < flows.size(); ++i) {
    EXPECT_EQ(flows[i].start_ns, 500'000 + (i / 3) * 1'000'000);
    EXPECT_EQ(flows[i].dst, 104);
    EXPECT_LT(flows[i].src, 103);  // rack 1000: H0–H2
    EXPECT_EQ(flows[i].size_bytes, 64'000u);
  }
}

// Pyrrha Fig. 7's stress test: every host outside `to` starts `flows` flows of `size` at once,
// each to a host of `to` outside its rack; hosts of `to` send nothing.
TEST(WorkloadFlows, BurstFromEverySenderToTheDestinationRacks) {
  const HostInfo hosts = make_hosts(4, 2);  // H0 H1 | H2 H3 | H4 H5 | H6 H7
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kBurst;
  spec.flows_per_host = 40;
  spec.size_bytes = 24'000;
  spec.start_ns = 7'000;
  spec.to = {"H0", "H1", "H3"};
  const auto flows = expand_workloads({spec}, hosts, 1'000'000, 1);
  // Senders H2, H4, H5, H6, H7 (H3 is a destination); H2 reaches only H0 and H1.
  ASSERT_EQ(flows.size(), 5u * 40);
  std::map<int, int> from;
  std::map<int, std::set<int>> to_of;
  for (const FlowSpec& f : flows) {
    EXPECT_EQ(f.start_ns, 7'000u);
    EXPECT_EQ(f.size_bytes, 24'000u);
    EXPECT_NE(rack_of_node(hosts, f.src), rack_of_node(hosts, f.dst));
    EXPECT_TRUE(f.dst == 100 || f.dst == 101 || f.dst == 103) << f.dst;
    ++from[f.src];
    to_of[f.src].insert(f.dst);
  }
  EXPECT_EQ(from, (std::map<int, int>{{102, 40}, {104, 40}, {105, 40}, {106, 40}, {107, 40}}));
  EXPECT_EQ(to_of[102], (std::set<int>{100, 101}));
  EXPECT_EQ(to_of[104], (std::set<int>{100, 101, 103}));  // 40 draws of 3: each is drawn
  EXPECT_TRUE(same_flows(flows, expand_workloads({spec}, hosts, 1'000'000, 1)));
  EXPECT_FALSE(same_flows(flows, expand_workloads({spec}, hosts, 1'000'000, 2)));
}

// GFC §6.2.3's closed loop: one first flow a host, all at the start, each to another rack;
// the loop's run-time part names the hosts and their racks, and the flows point at it.
TEST(WorkloadFlows, ClosedLoopGivesEachHostItsFirstFlow) {
  const HostInfo hosts = make_hosts(3, 2);
  WorkloadSpec spec;
  spec.kind = WorkloadKind::kClosedLoop;
  spec.sizes = web_search();
  spec.start_ns = 5'000;
  spec.stop_ns = 900'000;
  std::vector<ClosedLoopSpec> loops;
  const auto flows = expand_workloads({poisson(0.1), spec}, hosts, 1'000'000, 4, nullptr, &loops);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].nodes, (std::vector<int>{100, 101, 102, 103, 104, 105}));
  EXPECT_EQ(loops[0].racks, (std::vector<int>{1000, 1000, 1001, 1001, 1002, 1002}));
  EXPECT_EQ(loops[0].start_ns, 5'000u);
  EXPECT_EQ(loops[0].stop_ns, 900'000u);
  std::set<int> sources;
  for (const FlowSpec& f : flows) {
    if (f.closed_loop < 0) continue;
    EXPECT_EQ(f.closed_loop, 0);
    EXPECT_EQ(f.start_ns, 5'000u);
    EXPECT_EQ(loops[0].nodes[f.loop_host], f.src);
    EXPECT_NE(rack_of_node(hosts, f.src), rack_of_node(hosts, f.dst));
    EXPECT_GT(f.size_bytes, 0u);
    EXPECT_TRUE(sources.insert(f.src).second) << "two first flows from " << f.src;
  }
  EXPECT_EQ(sources.size(), 6u);
}

// ---- Reading [[workloads]]: every bad input named, with its place.

class ReadWorkloads : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("fcswitch_lab_workload_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "bad.cdf") << "# sizes\n100 0.5\n200 1.5\n";
    std::ofstream(dir_ / "small.cdf") << "1000 0.5\n3000 1\n";
    files_ = {dir_.string(), FCSWITCH_WORKLOAD_DIR};
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The problems of `text` (a scenario with only [[workloads]]).
  std::vector<std::string> problems(const std::string& text) {
    specs_.clear();
    const toml::table root = toml::parse(std::string_view(text), std::string("scen.toml"));
    config::ConfigProblems found("scen.toml");
    config::TableReader reader(root, "", found);
    specs_ = read_workloads(reader, hosts_, files_, transport_);
    return found.take();
  }

  std::filesystem::path dir_;
  WorkloadFiles files_;
  HostInfo hosts_ = make_hosts(2, 2);
  TransportSettings transport_;
  std::vector<WorkloadSpec> specs_;
};

// An entry's flows take its transport; one whose window cannot hold a frame is refused there.
TEST_F(ReadWorkloads, TransportOfTheFlows) {
  transport_.dcqcn_window_bytes = 1000;
  EXPECT_EQ(problems(R"([[workloads]]
kind = "incast"
senders = 2
size = "64KB"
period = "100us"
transport = "window"

[[workloads]]
kind = "poisson"
cdf = "web-search"
load = 0.5
transport = "dcqcn"
)"),
            (std::vector<std::string>{
                "scen.toml:12:13: workloads[1].transport: expected a window ([transport.dcqcn] "
                "window, 1000 bytes) of at least one frame (1514 bytes), found string \"dcqcn\""}));
  ASSERT_EQ(specs_.size(), 1u);
  EXPECT_EQ(specs_[0].transport, FlowTransport::kWindow);
  const auto flows = expand_workloads(specs_, hosts_, 1'000'000, 1);
  ASSERT_FALSE(flows.empty());
  for (const FlowSpec& f : flows) EXPECT_EQ(f.transport, FlowTransport::kWindow);
}

TEST_F(ReadWorkloads, GoodEntries) {
  EXPECT_EQ(problems(R"([[workloads]]
kind = "poisson"
cdf = "web-search"
load = 0.8
priority = 3
start = "1ms"
stop = "9ms"

[[workloads]]
kind = "incast"
senders = 4
load = 0.5
cdf_never = 1
)"),
            (std::vector<std::string>{"scen.toml:13:1: workloads[1].cdf_never: unknown key"}));
  ASSERT_EQ(specs_.size(), 1u);  // the bad entry is left out, the good one kept
  EXPECT_EQ(specs_[0].dscp, 24);
  EXPECT_EQ(specs_[0].load, 0.8);
  EXPECT_EQ(specs_[0].start_ns, 1'000'000u);
  EXPECT_EQ(specs_[0].stop_ns, 9'000'000u);
  EXPECT_EQ(specs_[0].cdf_file, std::string(FCSWITCH_WORKLOAD_DIR) + "/web-search.cdf");
  ASSERT_TRUE(specs_[0].sizes);
  EXPECT_EQ(specs_[0].where, "scen.toml:1:1: workloads[0]");

  EXPECT_TRUE(problems(R"([[workloads]]
kind = "incast"
senders = 2
size_mtus = [3, 4]
period = "100us"
to = ["H0", "H2"]
hosts = ["H0", "H1", "H2", "H3"]
frame = 1024
dscp = 26
seed = 9

[[workloads]]
kind = "poisson"
cdf = "small.cdf"
load = 1
)")
                  .empty());
  ASSERT_EQ(specs_.size(), 2u);
  EXPECT_EQ(specs_[0].kind, WorkloadKind::kIncast);
  EXPECT_EQ(specs_[0].min_mtus, 3u);
  EXPECT_EQ(specs_[0].max_mtus, 4u);
  EXPECT_EQ(specs_[0].period_ns, 100'000u);
  EXPECT_EQ(specs_[0].dscp, 26);
  EXPECT_EQ(specs_[0].frame_bytes, 1024u);
  EXPECT_EQ(specs_[0].seed_offset, 9u);
  EXPECT_EQ(specs_[0].to, (std::vector<std::string>{"H0", "H2"}));
  EXPECT_EQ(specs_[1].cdf_file, (dir_ / "small.cdf").string());
  EXPECT_EQ(specs_[1].sizes->mean_bytes(), 0.5 * 1000 + 0.5 * 2000);
}

TEST_F(ReadWorkloads, UnknownKind) {
  EXPECT_EQ(problems("[[workloads]]\nkind = \"open-loop\"\nload = 0.5\n"),
            (std::vector<std::string>{
                "scen.toml:2:8: workloads[0].kind: expected one of \"poisson\" \"incast\" "
                "\"burst\" \"closed-loop\", found string \"open-loop\""}));
  EXPECT_EQ(problems("[[workloads]]\nload = 0.5\n"),
            (std::vector<std::string>{"scen.toml:1:1: workloads[0].kind: expected one of "
                                      "\"poisson\" \"incast\" \"burst\" \"closed-loop\", "
                                      "found nothing"}));
  EXPECT_TRUE(specs_.empty());
}

// GFC §6.2.3's closed loop: a CDF and hosts in two racks; no load (a host has one flow at a
// time) and none of the other kinds' keys.
TEST_F(ReadWorkloads, ClosedLoopKeysAndItsRefusals) {
  EXPECT_TRUE(problems("[[workloads]]\nkind = \"closed-loop\"\ncdf = \"small.cdf\"\n"
                       "stop = \"1ms\"\npriority = 3\n")
                  .empty());
  ASSERT_EQ(specs_.size(), 1u);
  EXPECT_EQ(specs_[0].kind, WorkloadKind::kClosedLoop);
  EXPECT_EQ(specs_[0].stop_ns, 1'000'000u);
  EXPECT_EQ(problems("[[workloads]]\nkind = \"closed-loop\"\ncdf = \"small.cdf\"\nload = 0.5\n"
                     "hosts = [\"H0\", \"H1\"]\n"),
            (std::vector<std::string>{
                "scen.toml:4:8: workloads[0].load: expected no `load` for kind \"closed-loop\" "
                "(a key of kind \"poisson\"), found float 0.5",
                "scen.toml:5:9: workloads[0].hosts: expected hosts in at least two racks (each "
                "flow goes to another rack), found every host in one rack"}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"closed-loop\"\n"),
            (std::vector<std::string>{
                "scen.toml:1:1: workloads[0].cdf: expected a string, found nothing"}));
  EXPECT_TRUE(specs_.empty());
}

TEST_F(ReadWorkloads, LoadOutOfRange) {
  EXPECT_EQ(problems("[[workloads]]\nkind = \"poisson\"\ncdf = \"small.cdf\"\nload = 1.5\n"),
            (std::vector<std::string>{
                "scen.toml:4:8: workloads[0].load: expected a load in (0, 1], found float 1.5"}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"poisson\"\ncdf = \"small.cdf\"\nload = 0\n"),
            (std::vector<std::string>{
                "scen.toml:4:8: workloads[0].load: expected a load in (0, 1], found integer 0"}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"poisson\"\ncdf = \"small.cdf\"\n"),
            (std::vector<std::string>{"scen.toml:1:1: workloads[0].load: expected a load in (0, "
                                      "1] of each host's link, found nothing"}));
  EXPECT_TRUE(specs_.empty());
}

TEST_F(ReadWorkloads, CdfThatDoesNotParseNamesBothPlaces) {
  EXPECT_EQ(problems("[[workloads]]\nkind = \"poisson\"\nload = 0.5\ncdf = \"bad.cdf\"\n"),
            (std::vector<std::string>{
                "scen.toml:4:7: workloads[0].cdf: expected a flow-size CDF (" +
                (dir_ / "bad.cdf").string() +
                ":3:5: expected a cumulative_probability in [0, 1], found 1.5), found string "
                "\"bad.cdf\""}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"poisson\"\nload = 0.5\ncdf = \"web-serach\"\n"),
            (std::vector<std::string>{
                "scen.toml:4:7: workloads[0].cdf: expected a flow-size CDF (" FCSWITCH_WORKLOAD_DIR
                "/web-serach.cdf:0:0: expected a readable flow-size CDF file, found none; bare "
                "names: data-mining, enterprise, hadoop, memcached, web-search, web-server), "
                "found string \"web-serach\""}));
  EXPECT_TRUE(specs_.empty());
}

TEST_F(ReadWorkloads, UnknownHostsAndRacks) {
  EXPECT_EQ(
      problems("[[workloads]]\nkind = \"poisson\"\ncdf = \"small.cdf\"\nload = 0.5\n"
               "hosts = [\"H0\", \"S1\", \"H0\"]\n"),
      (std::vector<std::string>{
          "scen.toml:5:16: workloads[0].hosts: expected the name of a host with a link, found "
          "string \"S1\"",
          "scen.toml:5:22: workloads[0].hosts: expected each host once, found string \"H0\""}));
  // H0 and H1 share rack 1000: no other rack to send to (GFC §6.2.3).
  EXPECT_EQ(problems("[[workloads]]\nkind = \"poisson\"\ncdf = \"small.cdf\"\nload = 0.5\n"
                     "hosts = [\"H0\", \"H1\"]\n"),
            (std::vector<std::string>{
                "scen.toml:5:9: workloads[0].hosts: expected hosts in at least two racks (each "
                "flow goes to another rack), found every host in one rack"}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"incast\"\nsenders = 4\nload = 0.5\n"
                     "to = \"H9\"\n"),
            (std::vector<std::string>{"scen.toml:5:6: workloads[0].to: expected the name of a "
                                      "host with a link, found string \"H9\""}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"incast\"\nsenders = 4\nload = 0.5\n"
                     "to = \"H2\"\nhosts = [\"H0\", \"H1\"]\n"),
            (std::vector<std::string>{"scen.toml:5:6: workloads[0].to: expected destinations "
                                      "among the hosts of `hosts`, found \"H2\", not one of "
                                      "them"}));
  EXPECT_TRUE(specs_.empty());
}

TEST_F(ReadWorkloads, KeysOfTheOtherKindAndRulesBetweenKeys) {
  EXPECT_EQ(problems("[[workloads]]\nkind = \"incast\"\nsenders = 4\nperiod = \"1ms\"\n"
                     "load = 0.5\ncdf = \"small.cdf\"\nsize = 1000\nsize_mtus = 3\n"
                     "colour = \"red\"\n"),
            (std::vector<std::string>{
                "scen.toml:5:8: workloads[0].load: expected either period or load, not both, "
                "found float 0.5",
                "scen.toml:6:7: workloads[0].cdf: expected no `cdf` for kind \"incast\" (a key of "
                "kind \"poisson\"), found string \"small.cdf\"",
                "scen.toml:8:13: workloads[0].size_mtus: expected either size or size_mtus, not "
                "both, found integer 3",
                "scen.toml:9:1: workloads[0].colour: unknown key"}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"incast\"\nsize_mtus = [5, 2]\n"),
            (std::vector<std::string>{
                "scen.toml:1:1: workloads[0].senders: expected an integer in [1, 1000000], found "
                "nothing",
                "scen.toml:1:1: workloads[0].period: expected a period (\"500us\") or a load in "
                "(0, 1] of the destination's link, found nothing",
                "scen.toml:3:13: workloads[0].size_mtus: expected a number of MTUs, or [min, max] "
                "with 1 <= min <= max <= 1000000, found array of 2"}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"poisson\"\ncdf = \"small.cdf\"\nload = 0.5\n"
                     "senders = 3\nstart = \"2ms\"\nstop = \"1ms\"\n"),
            (std::vector<std::string>{
                "scen.toml:5:11: workloads[0].senders: expected no `senders` for kind "
                "\"poisson\" (a key of kind \"incast\"), found integer 3",
                "scen.toml:7:8: workloads[0].stop: expected a stop after start (2000000 ns), "
                "found string \"1ms\""}));
  EXPECT_TRUE(specs_.empty());
}

TEST_F(ReadWorkloads, BurstKeysAndItsRefusals) {
  EXPECT_TRUE(problems("[[workloads]]\nkind = \"burst\"\nflows = 40\nsize = \"24KB\"\n"
                       "to = [\"H0\", \"H1\"]\nstart = \"1ms\"\npriority = 3\n")
                  .empty());
  ASSERT_EQ(specs_.size(), 1u);
  EXPECT_EQ(specs_[0].kind, WorkloadKind::kBurst);
  EXPECT_EQ(specs_[0].flows_per_host, 40);
  EXPECT_EQ(specs_[0].size_bytes, 24'000u);
  EXPECT_EQ(specs_[0].start_ns, 1'000'000u);
  EXPECT_EQ(specs_[0].dscp, 3 << 3);
  EXPECT_EQ(problems("[[workloads]]\nkind = \"burst\"\nstop = \"1ms\"\nload = 0.5\n"),
            (std::vector<std::string>{
                "scen.toml:1:1: workloads[0].flows: expected an integer in [1, 1000000], found "
                "nothing",
                "scen.toml:1:1: workloads[0].size: expected each flow's size (\"24KB\"), found "
                "nothing",
                "scen.toml:1:1: workloads[0].to: expected the destinations: a host or a list of "
                "hosts, found nothing",
                "scen.toml:3:8: workloads[0].stop: expected no `stop` for kind \"burst\" (a key "
                "of kind \"poisson\"), found string \"1ms\"",
                "scen.toml:4:8: workloads[0].load: expected no `load` for kind \"burst\" (a key "
                "of kind \"poisson\"), found float 0.5"}));
  EXPECT_EQ(problems("[[workloads]]\nkind = \"burst\"\nflows = 1\nsize = 1000\n"),
            (std::vector<std::string>{"scen.toml:1:1: workloads[0].to: expected the "
                                      "destinations: a host or a list of hosts, found nothing"}));
  // H0 and H1 share a rack: H1, the only sender, has no destination outside it.
  EXPECT_EQ(problems("[[workloads]]\nkind = \"burst\"\nflows = 1\nsize = 1000\n"
                     "to = \"H0\"\nhosts = [\"H0\", \"H1\"]\n"),
            (std::vector<std::string>{"scen.toml:5:6: workloads[0].to: expected a host outside "
                                      "each sender's rack, found none for \"H1\""}));
  // 15 senders × 1 000 000 flows: more than the 10 million a burst may expand to.
  hosts_ = make_hosts(4, 4);
  EXPECT_EQ(problems("[[workloads]]\nkind = \"burst\"\nflows = 1000000\nsize = 1000\n"
                     "to = \"H0\"\n"),
            (std::vector<std::string>{"scen.toml:3:9: workloads[0].flows: expected at most "
                                      "10000000 flows in all, found 15000000 (15 senders × "
                                      "1000000)"}));
  hosts_ = make_hosts(2, 2);
  EXPECT_EQ(problems("[[workloads]]\nkind = \"burst\"\nflows = 1\nsize = 1000\n"
                     "to = [\"H0\", \"H2\"]\nhosts = [\"H0\", \"H2\"]\n"),
            (std::vector<std::string>{"scen.toml:6:9: workloads[0].hosts: expected a host of "
                                      "`hosts` that is not one of `to` (the senders), found "
                                      "none"}));
  EXPECT_TRUE(specs_.empty());
}

// ---- The FCT report.

// One hop of 8 Gb/s: 1 ns a byte, so a flow of n frames of F bytes ideally takes n·(F + 24) ns.
const std::vector<workload::PathHop> kOneByteANs{{8e9, 0}};

FlowSpec sized(int id, uint64_t size_bytes, uint32_t frame_bytes = 1000) {
  FlowSpec f;
  f.id = id;
  f.src = 0;
  f.dst = 1;
  f.size_bytes = size_bytes;
  f.frame_bytes = frame_bytes;
  return f;
}

TEST(FctReport, IdealFctCountsTheLabsWholeFrames) {
  // 15000 bytes in 1514-byte frames: 10 frames of 1538 wire bytes; two 10 Gb/s hops of 1 µs:
  // (10 + 2 − 1) × 1538 × 0.8 ns + 2 µs.
  const std::vector<workload::PathHop> path{{1e10, 1000}, {1e10, 1000}};
  EXPECT_NEAR(lab_ideal_fct_ns(15000, 1514, path), 11 * 1538 * 0.8 + 2000, 1e-6);
  EXPECT_DOUBLE_EQ(lab_ideal_fct_ns(1000, 1000, kOneByteANs), 1024);
  EXPECT_DOUBLE_EQ(lab_ideal_fct_ns(1001, 1000, kOneByteANs), 2048);
  EXPECT_DOUBLE_EQ(lab_ideal_fct_ns(1, 40, kOneByteANs), 84);  // padded to the 60-byte minimum
}

TEST(FctReport, ALoneFlowAtTheIdealHasSlowdownOne) {
  const std::vector<workload::PathHop> path{{1e10, 1000}, {4e10, 500}, {1e10, 1000}};
  const std::vector<FlowSpec> specs{sized(3, 123'456, 1514)};
  const double ideal_ns = lab_ideal_fct_ns(123'456, 1514, path);
  const FctReport report = fct_report(specs, {{3, "A", "B", ideal_ns / 1e9}}, {path});
  ASSERT_EQ(report.flows.size(), 1u);
  ASSERT_TRUE(report.flows[0].slowdown);
  EXPECT_NEAR(*report.flows[0].slowdown, 1, 1e-12);
  EXPECT_NEAR(report.all.completed.mean_slowdown, 1, 1e-12);
  EXPECT_EQ(report.all.incomplete, 0u);
}

TEST(FctReport, BucketsWithIncompleteFlowsApart) {
  const std::vector<FlowSpec> specs{sized(0, 1000),    sized(1, 2000), sized(2, 50'000),
                                    sized(3, 200'000), sized(4, 5000), sized(5, 2'000'000),
                                    sized(6, 0)};
  std::vector<FlowOutcome> outcomes{{0, "A", "B", 2048e-9},      {1, "A", "B", 6144e-9},
                                    {2, "A", "B", 51200e-9},     {3, "A", "B", 409600e-9},
                                    {4, "A", "B", std::nullopt}, {5, "A", "B", std::nullopt},
                                    {6, "A", "B", std::nullopt}};
  const FctReport report =
      fct_report(specs, outcomes, std::vector<std::vector<workload::PathHop>>(7, kOneByteANs));
  ASSERT_EQ(report.flows.size(), 6u);  // the unsized flow has no FCT
  ASSERT_EQ(report.buckets.size(), 4u);
  const auto& small = report.buckets[0];
  EXPECT_EQ(small.completed.count, 2u);
  EXPECT_EQ(small.incomplete, 1u);
  EXPECT_DOUBLE_EQ(small.completed.mean_fct_ns, 4096);
  EXPECT_DOUBLE_EQ(small.completed.p99_fct_ns, 6144);
  EXPECT_DOUBLE_EQ(small.completed.mean_slowdown, 2.5);  // 2048/1024 and 6144/2048
  EXPECT_DOUBLE_EQ(small.completed.p99_slowdown, 3);
  EXPECT_EQ(report.buckets[1].completed.count, 1u);
  EXPECT_DOUBLE_EQ(report.buckets[1].completed.mean_slowdown, 1);
  EXPECT_DOUBLE_EQ(report.buckets[2].completed.p99_fct_ns, 409600);
  EXPECT_DOUBLE_EQ(report.buckets[2].completed.mean_slowdown, 2);
  EXPECT_EQ(report.buckets[3].completed.count, 0u);
  EXPECT_EQ(report.buckets[3].incomplete, 1u);
  EXPECT_EQ(report.all.completed.count, 4u);
  EXPECT_EQ(report.all.incomplete, 2u);
  EXPECT_DOUBLE_EQ(report.all.completed.mean_slowdown, 2);

  const nlohmann::ordered_json j = fct_json(report);
  EXPECT_EQ(j["flows"], 6);
  EXPECT_EQ(j["completed"], 4);
  EXPECT_EQ(j["incomplete"], 2);
  EXPECT_EQ(j["by_size"][0]["incomplete"], 1);
  EXPECT_DOUBLE_EQ(j["by_size"][0]["p99_fct_s"].get<double>(), 6144e-9);
  EXPECT_EQ(j["by_size"][0]["upper_bytes"], 10'000);
  EXPECT_TRUE(j["by_size"][3]["upper_bytes"].is_null());
  EXPECT_TRUE(j["by_size"][3]["mean_fct_s"].is_null());
  EXPECT_EQ(j["by_size"][3]["incomplete"], 1);
  EXPECT_DOUBLE_EQ(j["all"]["mean_slowdown"].get<double>(), 2);

  const auto csv = std::filesystem::temp_directory_path() /
                   ("fcswitch_flows_fct_" + std::to_string(::getpid()) + ".csv");
  write_flows_fct_csv(csv.string(), report);
  std::ifstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::filesystem::remove(csv);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0], "id,from,to,size_bytes,start_s,fct_s,ideal_fct_s,slowdown");
  EXPECT_EQ(lines[1], "0,A,B,1000,0,2.048e-06,1.024e-06,2");
  EXPECT_EQ(lines[5], "4,A,B,5000,0,,5.12e-06,");
}

TEST(FctReport, RefusesMismatchedInput) {
  EXPECT_THROW(fct_report({sized(0, 1000)}, {}, {kOneByteANs}), std::invalid_argument);
  EXPECT_THROW(fct_report({sized(0, 1000)}, {{0, "A", "B", 1e-6}}, {}), std::invalid_argument);
  EXPECT_THROW(fct_report({sized(0, 1000)}, {{0, "A", "B", 1e-6}}, {{}}), std::invalid_argument);
}

}  // namespace
}  // namespace fcswitch::lab

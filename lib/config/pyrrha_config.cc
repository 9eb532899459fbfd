#include "config/pyrrha_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/tick_rate.h"
#include "core/traffic_class.h"
#include "core/units.h"

namespace fcswitch::config {

namespace {

// Thresholds in one-hop BDPs: the paper's are 1 and 2 (NOTES.md "Pyrrha"); a million keeps
// the product in a uint64_t for any BDP a port can have (400 Gb/s × 60 s response time).
constexpr double kMaxThresholdBdps = 1e6;
// As the other byte sizes of a switch ([buffer], [pabo]): far above any switch's buffer.
constexpr uint64_t kMaxPyrrhaThresholdBytes = uint64_t{1} << 34;
// Pyrrha §6's switches have about 100 isolation queues per port; 4096 is far above what a
// scheduler scans per pass.
constexpr int64_t kMaxIsolationQueues = 4096;
constexpr int64_t kMaxRoots = 1'000'000;
constexpr uint64_t kMinStageBytes = 64;  // one minimum frame with its FCS
constexpr uint64_t kMaxStageBytes = uint64_t{16} << 20;

// The paper's evaluation: K_pause = 2, K_resume = 1 one-hop BDPs (NOTES.md "Pyrrha").
constexpr double kDefaultPauseBdps = 2;
constexpr double kDefaultResumeBdps = 1;

// One threshold, given in one-hop BDPs or in bytes (never both).
struct Threshold {
  std::string_view bdp_key;
  std::string_view bytes_key;
  std::optional<double> bdps;
  std::optional<uint64_t> bytes;
  bool ok = true;

  // The key the file gave it under; empty for the default.
  std::string_view given_key() const {
    return bdps ? bdp_key : bytes ? bytes_key : std::string_view();
  }
};

Threshold read_threshold(TableReader& reader, std::string_view bdp_key,
                         std::string_view bytes_key) {
  Threshold t{bdp_key, bytes_key, std::nullopt, std::nullopt, true};
  t.bdps = reader.number(bdp_key, 0, kMaxThresholdBdps);
  if (t.bdps && *t.bdps <= 0) {
    reader.refuse(bdp_key, "a number of one-hop BDPs > 0 (a queue pauses above it)");
    t.bdps.reset();
  }
  t.bytes = reader.bytes(bytes_key, 1, kMaxPyrrhaThresholdBytes);
  // A key that is there but was not taken is a problem already: compare nothing with it.
  t.ok = t.bdps.has_value() == reader.has(bdp_key) && t.bytes.has_value() == reader.has(bytes_key);
  if (t.bdps && t.bytes) {
    reader.refuse(
        bytes_key,
        fmt::format("either {} (one-hop BDPs) or {} (bytes), not both", bdp_key, bytes_key),
        fmt::format("{} = {} as well", bdp_key, *t.bdps));
    t.ok = false;
  }
  return t;
}

// "131000 bytes (2 × the 65500-byte one-hop BDP)", or "200000 bytes" when given in bytes.
std::string describe_threshold(uint64_t bytes, double bdps, uint64_t one_hop_bdp_bytes) {
  if (bdps == 0) return fmt::format("{} bytes", bytes);
  return fmt::format("{} bytes ({} × the {}-byte one-hop BDP)", bytes, bdps, one_hop_bdp_bytes);
}

std::string_view queueing_name(Queueing queueing) {
  switch (queueing) {
    case Queueing::kOutput:
      return "output";
    case Queueing::kInputFair:
      return "input-fair";
    case Queueing::kInputHol:
      return "input-hol";
  }
  return "?";
}

// What keeps Pyrrha off `priority`, each refusal pinned to the key.
void refuse_conflicts(TableReader& reader, const SwitchConfig& config, int priority) {
  // Pyrrha is flow control for a lossless class (Pyrrha §1): its packets are admitted against
  // the lossless ingress buffer, and the rare overflow (§4.4) counts as a lossless drop.
  if (!has_priority(config.lossless_priorities, priority))
    reader.refuse("priority",
                  "a lossless priority ([switch] lossless_priorities): Pyrrha is flow control "
                  "for a lossless class",
                  fmt::format("{}, not lossless", priority));
  if (has_priority(config.pabo.priorities, priority))
    reader.refuse("priority",
                  "a priority PABO does not bounce on: Pyrrha holds a root's packets upstream, "
                  "PABO sends them back",
                  fmt::format("{}, one of [pabo] priorities", priority));
  // Pyrrha pauses per congestion root instead of per port and priority (Pyrrha §4): a PFC
  // (or CBFC, GFC) engine on the same queue would pause the victims Pyrrha keeps moving.
  const PortConfig* first = nullptr;
  const fc::EngineDescriptor* engine = nullptr;
  int others = 0;
  for (const PortConfig& port : config.ports) {
    const fc::EngineDescriptor* e = port.flow_control.priorities[priority].engine;
    if (!e) continue;
    if (first) {
      ++others;
    } else {
      first = &port;
      engine = e;
    }
  }
  if (first)
    reader.refuse(
        "priority",
        "a priority whose flow-control engine is \"none\" on every port: Pyrrha "
        "replaces PFC on its priority",
        fmt::format("{}: port {} runs \"{}\"{}", priority, first->name, engine->name,
                    others ? fmt::format(" (as do {} other port{})", others, others > 1 ? "s" : "")
                           : std::string()));
  if (config.tagger)
    reader.refuse("priority",
                  "no [tagger]: Tagger rewrites the queue a packet joins, so it would leave "
                  "Pyrrha's queues or enter them at one hop and not the next",
                  "[tagger] is set");
  if (config.queueing != Queueing::kOutput)
    reader.refuse("priority",
                  "[switch] queueing = \"output\": a congestion root is an output queue above "
                  "K_pause (Pyrrha §4.1)",
                  fmt::format("queueing = \"{}\"", queueing_name(config.queueing)));
}

// `host_ports`: names of this switch's ports, each once.
std::vector<int> read_host_ports(TableReader& reader, const SwitchConfig& config) {
  std::vector<int> ports;
  const toml::array* names = reader.array("host_ports");
  if (!names) return ports;
  for (const toml::node& item : *names) {
    const auto* name = item.as_string();
    const int port = name ? config.port_index(name->get()) : -1;
    if (port < 0 || std::find(ports.begin(), ports.end(), port) != ports.end()) {
      reader.refuse("host_ports", "names of ports in [[ports]], each once", describe(item));
      return {};
    }
    ports.push_back(port);
  }
  return ports;
}

// [pyrrha] network and node (PyrrhaNetwork). The network's routes give the onward paths, the
// host ports and this switch's id, so none of those may be given beside it; the file is
// opened when fcswitch starts (lab/pyrrha_network.h), relative to this config's folder.
std::optional<PyrrhaNetwork> read_network(TableReader& reader, const std::string& config_file) {
  const auto file = reader.string("network");
  const auto node = reader.string("node");
  if (!file) {
    if (node && !reader.has("network"))  // a network of another type is refused already
      reader.refuse("node", "node only beside network (the lab scenario it names a switch of)",
                    fmt::format("\"{}\" with no network", *node));
    return std::nullopt;
  }
  bool ok = true;
  if (file->empty()) {
    reader.refuse("network", "the path of a lab scenario describing the network");
    ok = false;
  }
  if (!node || node->empty()) {
    reader.refuse("node", "the name of this switch in the network's scenario");
    ok = false;
  }
  for (const std::string_view key : {"paths", "host_ports", "switch_id"}) {
    if (!reader.has(key)) continue;
    reader.refuse(key, "nothing beside network: the network's routes give it",
                  fmt::format("{} and network", key));
    ok = false;
  }
  if (!ok) return std::nullopt;
  namespace fs = std::filesystem;
  fs::path path(*file);
  if (path.is_relative()) path = fs::path(config_file).parent_path() / path;
  const ConfigProblems& problems = reader.problems();
  return PyrrhaNetwork{.file = path.lexically_normal().string(),
                       .node = *node,
                       .file_place = problems.place(reader.raw().get("network")->source()),
                       .node_place = problems.place(reader.raw().get("node")->source())};
}

// [[pyrrha.paths]]: { egress, to, hops }, one entry per (egress, to).
std::vector<PyrrhaPath> read_paths(TableReader& pyrrha, const SwitchConfig& config,
                                   const std::vector<int>& host_ports, uint32_t switch_id) {
  std::vector<PyrrhaPath> paths;
  const toml::array* entries = pyrrha.array("paths");
  if (!entries) return paths;
  for (size_t i = 0; i < entries->size(); ++i) {
    const toml::node& node = *entries->get(i);
    const std::string key = fmt::format("pyrrha.paths[{}]", i);
    const auto* table = node.as_table();
    if (!table) {
      pyrrha.problems().expected(node.source(), key, "a table { egress, to, hops }",
                                 describe(node));
      continue;
    }
    TableReader reader(*table, key, pyrrha.problems());
    const auto egress_name = reader.string("egress", true);
    const auto to = reader.string("to", true);
    const toml::array* hops = reader.array("hops", true);
    reader.reject_unknown_keys();
    PyrrhaPath path;
    bool ok = egress_name && to && hops;
    if (egress_name) {
      path.egress = config.port_index(*egress_name);
      if (path.egress < 0) {
        reader.refuse("egress", "the name of a port in [[ports]]");
        ok = false;
      } else if (std::find(host_ports.begin(), host_ports.end(), path.egress) != host_ports.end()) {
        // Past a host port the next hop is the host: nothing onward to predict.
        reader.refuse("egress", "a port that does not face a host (host_ports)",
                      fmt::format("\"{}\", one of host_ports", *egress_name));
        ok = false;
      }
    }
    if (to) {
      const auto mac = wire::MacAddress::parse(*to);
      if (!mac || mac->is_multicast()) {
        reader.refuse("to", "a unicast MAC address");
        ok = false;
      } else {
        path.dst = *mac;
      }
    }
    if (hops) {
      if (hops->empty() || hops->size() > kMaxPyrrhaPathHops) {
        reader.refuse("hops",
                      fmt::format("1 to {} hops past this switch, near to far", kMaxPyrrhaPathHops),
                      fmt::format("{} hops", hops->size()));
        ok = false;
      }
      for (const toml::node& item : *hops) {
        const auto* text = item.as_string();
        const auto hop = text ? parse_pyrrha_hop(text->get()) : std::nullopt;
        if (!hop) {
          reader.refuse("hops", kPyrrhaHopForm, describe(item));
          ok = false;
          break;
        }
        // A path back through this switch is a routing loop: Pyrrha ignores a root that names
        // itself (§4.5), so a hop here could never hold anything.
        if (hop->switch_id == switch_id) {
          reader.refuse("hops", "hops at other switches than this one (switch_id)", describe(item));
          ok = false;
          break;
        }
        path.hops.push_back(*hop);
      }
    }
    if (!ok) continue;
    const auto same = [&](const PyrrhaPath& p) {
      return p.egress == path.egress && p.dst == path.dst;
    };
    if (const auto first = std::find_if(paths.begin(), paths.end(), same); first != paths.end()) {
      reader.refuse("to", "one path per (egress, to)",
                    fmt::format("\"{}\" by \"{}\" again", *to, *egress_name));
      continue;
    }
    paths.push_back(std::move(path));
  }
  return paths;
}

}  // namespace

std::optional<PyrrhaHop> parse_pyrrha_hop(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  uint64_t id = 0, port = 0;
  const auto whole = [](std::string_view digits, uint64_t& out, uint64_t max) {
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return !digits.empty() && error == std::errc{} && end == digits.data() + digits.size() &&
           out <= max;
  };
  if (!whole(text.substr(0, colon), id, UINT32_MAX) ||
      !whole(text.substr(colon + 1), port, UINT16_MAX))
    return std::nullopt;
  return PyrrhaHop{static_cast<uint32_t>(id), static_cast<uint16_t>(port)};
}

uint64_t largest_one_hop_bdp_bytes(const SwitchConfig& config) {
  uint64_t largest = 0;
  for (const PortConfig& port : config.ports)
    largest =
        std::max(largest, one_hop_bdp_bytes(port.rate_bps, port.flow_control.response_time_ns));
  return largest;
}

uint64_t bdps_to_bytes(double bdps, uint64_t one_hop_bdp_bytes) {
  const double product = bdps * static_cast<double>(one_hop_bdp_bytes);
  const double nearest = std::round(product);
  const double bytes =
      std::abs(product - nearest) <= nearest * 1e-12 ? nearest : std::ceil(product);
  return std::max<uint64_t>(1, static_cast<uint64_t>(bytes));
}

void read_pyrrha(TableReader& root, SwitchConfig& config) {
  const toml::table* table = root.table("pyrrha");
  if (!table) return;
  TableReader reader(*table, "pyrrha", root.problems());
  // `enabled = false` keeps the section but runs the switch without it: one scenario file
  // compares Pyrrha with PFC (`--set pyrrha.enabled=false --set flow_control.engine=pfc`).
  if (auto on = reader.boolean("enabled"); on && !*on) return;
  PyrrhaSettings s;
  const auto priority = reader.integer("priority", 0, kNumPriorities - 1, true);
  if (priority) s.priority = static_cast<int>(*priority);
  if (auto id = reader.integer("switch_id", 0, UINT32_MAX))
    s.switch_id = static_cast<uint32_t>(*id);

  const Threshold pause = read_threshold(reader, "k_pause", "k_pause_bytes");
  const Threshold resume = read_threshold(reader, "k_resume", "k_resume_bytes");
  s.one_hop_bdp_bytes = largest_one_hop_bdp_bytes(config);
  auto fill = [&](const Threshold& t, double default_bdps, double& bdps, uint64_t& bytes) {
    if (t.bytes) {
      bdps = 0;  // given in bytes (PyrrhaSettings)
      bytes = *t.bytes;
    } else {
      bdps = t.bdps.value_or(default_bdps);
      bytes = bdps_to_bytes(bdps, s.one_hop_bdp_bytes);
    }
  };
  fill(pause, kDefaultPauseBdps, s.k_pause_bdp, s.table.k_pause_bytes);
  fill(resume, kDefaultResumeBdps, s.k_resume_bdp, s.table.k_resume_bytes);

  if (auto n = reader.integer("max_isolation_queues", 1, kMaxIsolationQueues))
    s.table.max_isolation_queues = static_cast<uint16_t>(*n);
  if (auto n = reader.integer("max_roots", 1, kMaxRoots))
    s.table.max_roots = static_cast<uint32_t>(*n);
  if (auto b = reader.bytes("stage_bytes", kMinStageBytes, kMaxStageBytes)) s.stage_bytes = *b;

  // Hysteresis: PAUSE above K_pause (Pyrrha §4.1), RESUME below K_resume (§4.3). Checked on
  // the bytes, so a BDP form and a byte form are compared as the table will. The ranges above
  // leave the thresholds' order the one problem the table can have. A switch with no ports
  // has no BDP (and a problem of its own already).
  if (pause.ok && resume.ok && !config.ports.empty()) {
    if (pyrrha_params_problem(s.table)) {
      const std::string_view key =
          !resume.given_key().empty() ? resume.given_key() : pause.given_key();
      reader.refuse(
          key,
          "K_resume below K_pause (PAUSE above K_pause, RESUME below K_resume: Pyrrha §4.1, "
          "§4.3)",
          fmt::format(
              "k_resume {} and k_pause {}",
              describe_threshold(s.table.k_resume_bytes, s.k_resume_bdp, s.one_hop_bdp_bytes),
              describe_threshold(s.table.k_pause_bytes, s.k_pause_bdp, s.one_hop_bdp_bytes)));
    }
  }
  s.network = read_network(reader, config.file);
  s.host_ports = read_host_ports(reader, config);
  s.paths = read_paths(reader, config, s.host_ports, s.switch_id);
  if (priority) refuse_conflicts(reader, config, s.priority);
  reader.reject_unknown_keys();
  config.pyrrha = s;
}

}  // namespace fcswitch::config

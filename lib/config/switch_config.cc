#include "config/switch_config.h"

#include "tagger/tag_rewrite_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "config/config_error.h"
#include "config/cpu_list.h"
#include "config/ecn_config.h"
#include "config/flow_control_config.h"
#include "config/pabo_config.h"
#include "config/plain_name.h"
#include "config/pyrrha_config.h"
#include "config/queue_list.h"
#include "config/table_reader.h"
#include "config/text_file.h"
#include "config/toml_text.h"
#include "wire/ether_type.h"

namespace fcswitch::config {

namespace {

constexpr uint64_t kMaxBufferBytes = 1ull << 34;  // 16 GiB: far above any switch's buffer

bool is_power_of_two(uint64_t v) {
  return v && !(v & (v - 1));
}

// "46" or "40-47" → [first, last]; nullopt when malformed or outside [0, limit).
std::optional<std::pair<int, int>> parse_code_range(std::string_view text, int limit) {
  auto parse_int = [](std::string_view s) -> std::optional<int> {
    int v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
    return v;
  };
  const size_t dash = text.find('-');
  const auto first = parse_int(text.substr(0, dash));
  const auto last = dash == std::string_view::npos ? first : parse_int(text.substr(dash + 1));
  if (!first || !last || *first < 0 || *last >= limit || *first > *last) return std::nullopt;
  return std::pair{*first, *last};
}

// A table `{ "46" = 5, "40-47" = 4 }` overriding entries of `map`.
template <size_t N>
void read_code_map(TableReader& parent, std::string_view key, std::array<uint8_t, N>& map) {
  const toml::table* table = parent.table(key);
  if (!table) return;
  ConfigProblems& problems = parent.problems();
  for (const auto& [code, value] : *table) {
    const std::string path = fmt::format("{}.\"{}\"", parent.key_path(key), code.str());
    const auto range = parse_code_range(code.str(), static_cast<int>(N));
    if (!range) {
      problems.expected(code.source(), path,
                        fmt::format("a code or range \"a-b\" in [0, {}]", N - 1),
                        fmt::format("\"{}\"", code.str()));
      continue;
    }
    const auto* priority = value.as_integer();
    if (!priority || priority->get() < 0 || priority->get() >= kNumPriorities) {
      problems.expected(value.source(), path, "a priority in [0, 7]", describe(value));
      continue;
    }
    for (int c = range->first; c <= range->second; ++c)
      map[c] = static_cast<uint8_t>(priority->get());
  }
}

void read_scheduler(TableReader& port, PortConfig& out) {
  const toml::table* table = port.table("scheduler");
  if (!table) return;
  TableReader reader(*table, port.key_path("scheduler"), port.problems());
  if (auto strict = read_queue_list(reader, "strict", true)) out.scheduler.strict_queues = *strict;
  if (const toml::table* weights = reader.table("weights")) {
    for (const auto& [queue, value] : *weights) {
      const std::string path = fmt::format("{}.\"{}\"", reader.key_path("weights"), queue.str());
      int q = -1;
      if (queue.str() == "lossy") {
        q = kLossyQueue;
      } else if (auto range = parse_code_range(queue.str(), kNumPriorities);
                 range && range->first == range->second) {
        q = range->first;
      }
      if (q < 0) {
        reader.problems().expected(queue.source(), path, "a priority in [0, 7] or \"lossy\"",
                                   fmt::format("\"{}\"", queue.str()));
        continue;
      }
      const auto* weight = value.as_integer();
      if (!weight || weight->get() < 1 || weight->get() > 1000) {
        reader.problems().expected(value.source(), path, "a weight in [1, 1000]", describe(value));
        continue;
      }
      out.scheduler.weights[q] = static_cast<uint32_t>(weight->get());
    }
  }
  if (auto quantum = reader.bytes("quantum_per_weight", 64, 1 << 20))
    out.scheduler.quantum_bytes_per_weight = static_cast<uint32_t>(*quantum);
  reader.reject_unknown_keys();
}

// A port's sub-tables read once the sections they override are known.
struct PortSubTables {
  std::vector<const toml::table*> flow_control;  // per port, null where it has none
  std::vector<const toml::table*> ecn;
};

PortConfig read_port(const toml::table& table, size_t index, ConfigProblems& problems,
                     const toml::table*& flow_control, const toml::table*& ecn) {
  TableReader reader(table, fmt::format("ports[{}]", index), problems);
  PortConfig port;
  port.name = reader.string("name", true).value_or("");
  if (reader.has("name") && reader.node("name")->is_string() &&
      !is_plain_name(port.name, 32, /*dots=*/true))
    reader.refuse("name", "1 to 32 characters of [A-Za-z0-9_.-]");
  port.device = reader.string("device", true).value_or("");
  if (auto profile = reader.choice("profile", {"auto", "vdev", "ixgbe-82599"})) {
    port.profile = *profile == "vdev"          ? NicProfileKind::kVdev
                   : *profile == "ixgbe-82599" ? NicProfileKind::kIxgbe82599
                                               : NicProfileKind::kAuto;
  }
  if (auto mac = reader.string("mac")) {
    port.mac = wire::MacAddress::parse(*mac);
    if (!port.mac || port.mac->is_multicast())
      reader.refuse("mac", "a unicast MAC address \"aa:bb:cc:dd:ee:ff\"");
  }
  if (auto rate = reader.rate_bps("rate", 1'000'000, 400'000'000'000)) port.rate_bps = *rate;
  if (auto cap = reader.rate_bps("rate_limit", 1000, 400'000'000'000)) {
    if (*cap >= port.rate_bps)
      reader.refuse("rate_limit", fmt::format("below the port rate ({} b/s)", port.rate_bps));
    else
      port.rate_limit_bps = *cap;
  }
  if (auto emulate = reader.boolean("emulate_wire")) port.emulate_wire = *emulate;
  if (auto n = reader.integer("wire_overhead", 0, 64))
    port.wire_overhead_bytes = static_cast<uint32_t>(*n);
  if (auto n = reader.integer("rx_descriptors", 0, 4096))
    port.rx_descriptors = static_cast<uint16_t>(*n);
  if (auto n = reader.integer("tx_descriptors", 0, 4096))
    port.tx_descriptors = static_cast<uint16_t>(*n);
  if (auto n = reader.integer("tx_burst", 1, 32)) port.tx_burst = static_cast<uint16_t>(*n);
  if (auto n = reader.integer("mtu", 68, 16000)) port.mtu = static_cast<uint32_t>(*n);
  if (auto t = reader.integer("control_ether_type", 0x0600, 0xFFFF)) {
    if (wire::carries_data(static_cast<uint16_t>(*t))) {
      reader.refuse("control_ether_type",
                    "an EtherType no data uses (0x8808 MAC control, 0x88B5/0x88B6 local "
                    "experimental): frames of this one would be taken for flow control",
                    fmt::format("0x{:04X}, which carries data", *t));
    } else {
      port.control_ether_type = static_cast<uint16_t>(*t);
    }
  }
  read_scheduler(reader, port);
  flow_control = reader.table("flow_control");  // read with [flow_control], once all is known
  ecn = reader.table("ecn");                    // read with [ecn]
  reader.reject_unknown_keys();
  return port;
}

std::optional<TaskRef> parse_task(std::string_view text, const SwitchConfig& config) {
  if (text == "fwd") return TaskRef{TaskKind::kFwd, -1};
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string_view kind = text.substr(0, colon);
  const int port = config.port_index(text.substr(colon + 1));
  if (port < 0) return std::nullopt;
  if (kind == "rx") return TaskRef{TaskKind::kRx, port};
  if (kind == "tx") return TaskRef{TaskKind::kTx, port};
  return std::nullopt;
}

void read_layout(TableReader& root, SwitchConfig& config) {
  const toml::table* table = root.table("layout");
  std::string preset = "compact";
  const toml::array* lcores = nullptr;
  std::optional<TableReader> reader;
  if (table) {
    reader.emplace(*table, "layout", root.problems());
    preset = reader->choice("preset", {"compact", "testbed", "custom"}).value_or("compact");
    lcores = reader->array("lcores", preset == "custom");
    reader->reject_unknown_keys();
  }
  config.layout_name = preset;
  const int ports = static_cast<int>(config.ports.size());
  if (preset == "testbed") {
    config.lcores = testbed_layout(ports);
  } else if (preset == "compact") {
    config.lcores = compact_layout(ports);
  }
  if (preset != "custom") {
    if (lcores)
      root.problems().note(lcores->source(), "layout.lcores",
                           "only allowed with preset = \"custom\"");
    return;
  }
  if (!lcores) return;
  ConfigProblems& problems = root.problems();
  std::vector<int> seen_rx(ports), seen_tx(ports);
  int seen_fwd = 0;
  for (size_t i = 0; i < lcores->size(); ++i) {
    const toml::node& lcore = *lcores->get(i);
    const std::string path = fmt::format("layout.lcores[{}]", i);
    const auto* tasks = lcore.as_array();
    if (!tasks || tasks->empty()) {
      problems.expected(lcore.source(), path, "a non-empty array of task names", describe(lcore));
      continue;
    }
    std::vector<TaskRef> refs;
    for (size_t j = 0; j < tasks->size(); ++j) {
      const toml::node& task = *tasks->get(j);
      const auto* name = task.as_string();
      auto ref = name ? parse_task(name->get(), config) : std::nullopt;
      if (!ref) {
        problems.expected(task.source(), fmt::format("{}[{}]", path, j),
                          "\"fwd\", \"rx:PORT\" or \"tx:PORT\" with PORT a port name",
                          describe(task));
        continue;
      }
      (ref->kind == TaskKind::kFwd  ? seen_fwd
       : ref->kind == TaskKind::kRx ? seen_rx[ref->port]
                                    : seen_tx[ref->port])++;
      refs.push_back(*ref);
    }
    config.lcores.push_back(std::move(refs));
  }
  // Every task runs exactly once.
  auto check = [&](int count, const std::string& task) {
    if (count != 1)
      problems.note(
          lcores->source(), "layout.lcores",
          fmt::format("task \"{}\" must appear exactly once, found {} times", task, count));
  };
  check(seen_fwd, "fwd");
  for (int p = 0; p < ports; ++p) {
    check(seen_rx[p], "rx:" + config.ports[p].name);
    check(seen_tx[p], "tx:" + config.ports[p].name);
  }
}

}  // namespace

std::vector<std::string> fib_port_names(TableReader& reader, std::string_view key) {
  std::vector<std::string> names;
  const toml::node* node = reader.node(key);
  if (!node) {
    reader.refuse(key, "a port name or a list of port names (ECMP)", "nothing");
  } else if (const auto* one = node->as_string()) {
    names.push_back(one->get());
  } else if (const auto* list = node->as_array(); list && !list->empty()) {
    for (const toml::node& item : *list)
      names.push_back(item.is_string() ? item.as_string()->get() : std::string());
  } else {
    reader.refuse(key, "a port name or a non-empty list of port names (ECMP)");
  }
  return names;
}

bool resolve_fib_ports(TableReader& reader, std::string_view key,
                       const std::vector<std::string>& names, const SwitchConfig& config,
                       FibEntry& entry) {
  entry.group.clear();
  for (const std::string& name : names) {
    const int port = config.port_index(name);
    if (port < 0 || std::find(entry.group.begin(), entry.group.end(), port) != entry.group.end()) {
      reader.refuse(key, names.size() == 1 ? "the name of a port in [[ports]]"
                                           : "names of ports in [[ports]], each once");
      entry.group.clear();
      return false;
    }
    entry.group.push_back(port);
  }
  if (entry.group.empty()) return false;
  entry.port = entry.group.front();
  if (entry.group.size() == 1) entry.group.clear();
  return true;
}

namespace {

void read_fib(TableReader& root, SwitchConfig& config) {
  const toml::array* entries = root.array("fib");
  if (!entries) return;
  std::map<uint64_t, size_t> macs;  // a MAC has one place in the FIB
  for (size_t i = 0; i < entries->size(); ++i) {
    const toml::node& node = *entries->get(i);
    const std::string path = fmt::format("fib[{}]", i);
    const auto* table = node.as_table();
    if (!table) {
      root.problems().expected(node.source(), path, "a table { mac, port }", describe(node));
      continue;
    }
    TableReader reader(*table, path, root.problems());
    auto mac_text = reader.string("mac", true);
    const std::vector<std::string> port_names = fib_port_names(reader, "port");
    reader.reject_unknown_keys();
    if (!mac_text || port_names.empty()) continue;
    auto mac = wire::MacAddress::parse(*mac_text);
    if (!mac || mac->is_multicast()) {
      reader.refuse("mac", "a unicast MAC address");
      continue;
    }
    if (!macs.emplace(mac->value, i).second) {
      reader.refuse("mac", fmt::format("a MAC not already in fib[{}]", macs[mac->value]),
                    fmt::format("\"{}\" again", *mac_text));
      continue;
    }
    FibEntry entry{*mac, -1, {}};
    if (resolve_fib_ports(reader, "port", port_names, config, entry))
      config.fib.push_back(std::move(entry));
  }
}

// What names a port's device: the DPDK device itself (the text before its arguments) and,
// for vdevs on a host interface, that interface ("iface=tap0").
std::vector<std::string> device_keys(std::string_view device) {
  std::vector<std::string> keys;
  if (device.empty()) return keys;
  keys.push_back(fmt::format("\"{}\"", device.substr(0, device.find(','))));
  for (size_t at = device.find(','); at != std::string_view::npos; at = device.find(',', at + 1)) {
    const std::string_view arg = device.substr(at + 1, device.find(',', at + 1) - at - 1);
    if (arg.rfind("iface=", 0) == 0)
      keys.push_back(fmt::format("host interface \"{}\"", arg.substr(6)));
  }
  return keys;
}

// Returns each port's flow_control and ecn tables.
PortSubTables read_ports(TableReader& root, SwitchConfig& config, const PortRules& rules) {
  PortSubTables sub_tables;
  const toml::array* ports = root.array("ports", true);
  if (!ports) return sub_tables;
  ConfigProblems& problems = root.problems();
  if (ports->empty()) problems.expected(ports->source(), "ports", "at least one port", "none");
  const size_t limit = std::min<size_t>(rules.ports, 64);
  if (ports->size() > limit)
    problems.expected(ports->get(limit)->source(), fmt::format("ports[{}]", limit),
                      fmt::format("at most {} ports ({})", limit, rules.why),
                      fmt::format("{} ports", ports->size()));
  std::map<std::string, size_t> names;
  std::map<std::string, size_t> devices;
  for (size_t i = 0; i < ports->size() && i < limit; ++i) {  // past it: refused above
    const toml::node& node = *ports->get(i);
    const auto* table = node.as_table();
    if (!table) {
      problems.expected(node.source(), fmt::format("ports[{}]", i), "a table", describe(node));
      continue;
    }
    const toml::table* flow_control = nullptr;
    const toml::table* ecn = nullptr;
    PortConfig port = read_port(*table, i, problems, flow_control, ecn);
    sub_tables.flow_control.resize(config.ports.size() + 1);
    sub_tables.flow_control.back() = flow_control;
    sub_tables.ecn.resize(config.ports.size() + 1);
    sub_tables.ecn.back() = ecn;
    if (!port.name.empty() && !names.emplace(port.name, i).second)
      problems.note(
          table->get("name")->source(), fmt::format("ports[{}].name", i),
          fmt::format("\"{}\" is already the name of ports[{}]", port.name, names[port.name]));
    // Two ports on one device (or one host interface) would take each other's frames.
    for (const std::string& key : device_keys(port.device))
      if (!devices.emplace(key, i).second)
        problems.note(table->get("device")->source(), fmt::format("ports[{}].device", i),
                      fmt::format("{} is already the device of ports[{}]", key, devices[key]));
    if (rules.device_arguments && !port.device.empty())
      if (const auto refusal = rules.device_arguments(port.device))
        problems.expected(table->get("device")->source(), fmt::format("ports[{}].device", i),
                          refusal->expected, refusal->found);
    config.ports.push_back(std::move(port));
  }
  return sub_tables;
}

void read_switch_section(TableReader& root, SwitchConfig& config) {
  const toml::table* table = root.table("switch");
  if (!table) return;
  TableReader reader(*table, "switch", root.problems());
  if (auto name = reader.string("name")) {
    if (is_plain_name(*name, 12)) {
      config.name = *name;
    } else {
      reader.refuse("name", "1 to 12 characters of [A-Za-z0-9_-] (it prefixes DPDK object names)");
    }
  }
  if (auto mask = read_queue_list(reader, "lossless_priorities", false))
    config.lossless_priorities = static_cast<PriorityMask>(*mask);
  if (auto v = reader.boolean("mac_learning")) config.mac_learning = *v;
  if (auto v = reader.boolean("decrement_ttl")) config.decrement_ttl = *v;
  if (auto v = reader.integer("ecmp_seed", 0, UINT32_MAX))
    config.ecmp_seed = static_cast<uint32_t>(*v);
  std::string queueing = "output";
  if (auto v = reader.choice("queueing", {"output", "input-fair", "input-hol"})) queueing = *v;
  config.queueing = queueing == "input-fair"  ? Queueing::kInputFair
                    : queueing == "input-hol" ? Queueing::kInputHol
                                              : Queueing::kOutput;
  if (auto v = reader.choice("crossbar", {"input-turns", "egress-round-robin"})) {
    config.crossbar =
        *v == "egress-round-robin" ? Crossbar::kEgressRoundRobin : Crossbar::kInputTurns;
    // Kept, not refused: a sweep over queueing may leave a file's crossbar in place.
    if (config.queueing != Queueing::kInputHol)
      reader.warn("crossbar", "queueing = \"input-hol\" (only input FIFOs have a crossbar)",
                  fmt::format("queueing = \"{}\": the crossbar has no effect", queueing));
  }
  if (reader.node("egress_service"))
    reader.refuse("egress_service",
                  "queueing, its new name: \"output\" (was \"fifo\"), \"input-fair\" (was "
                  "\"ingress-fair\") or \"input-hol\"");
  if (auto v = reader.integer("mbufs", 1023, 16'777'215)) config.mbufs = static_cast<uint32_t>(*v);
  if (auto v = reader.integer("mbuf_cache", 0, 512)) config.mbuf_cache = static_cast<uint32_t>(*v);
  auto ring_size = [&](std::string_view key, uint32_t& out) {
    if (auto v = reader.integer(key, 64, 1 << 20)) {
      if (is_power_of_two(static_cast<uint64_t>(*v))) {
        out = static_cast<uint32_t>(*v);
      } else {
        reader.refuse(key, "a power of two in [64, 1048576]");
      }
    }
  };
  ring_size("fwd_ring_packets", config.fwd_ring_packets);
  ring_size("egress_queue_packets", config.egress_queue_packets);
  reader.reject_unknown_keys();
}

void read_eal(TableReader& root, SwitchConfig& config) {
  const toml::table* table = root.table("eal");
  if (!table) return;
  TableReader reader(*table, "eal", root.problems());
  if (const toml::array* args = reader.array("args")) {
    for (size_t i = 0; i < args->size(); ++i) {
      const toml::node& arg = *args->get(i);
      if (const auto* s = arg.as_string()) {
        config.eal.args.push_back(s->get());
      } else {
        reader.problems().expected(arg.source(), fmt::format("eal.args[{}]", i), "a string",
                                   describe(arg));
      }
    }
  }
  if (auto cpus = reader.string("cpus")) {
    std::string why;
    if (auto list = parse_cpu_list(*cpus, why)) {
      config.eal.cpus = std::move(*list);
    } else {
      reader.refuse("cpus", "a CPU list such as \"0-3,8\"", fmt::format("\"{}\": {}", *cpus, why));
    }
  }
  if (auto sleep = reader.duration_ns("idle_sleep", 0, 999'999'999))
    config.eal.idle_sleep_ns = *sleep;
  reader.reject_unknown_keys();
}

void read_classify(TableReader& root, SwitchConfig& config) {
  const toml::table* table = root.table("classify");
  if (!table) return;
  TableReader reader(*table, "classify", root.problems());
  PriorityMaps& maps = config.priority_maps;
  if (auto trust = reader.choice("trust", {"dscp", "pcp"}))
    maps.trust = *trust == "pcp" ? TrustMode::kPcp : TrustMode::kDscp;
  if (auto p = reader.integer("default_priority", 0, kNumPriorities - 1))
    maps.default_priority = static_cast<uint8_t>(*p);
  read_code_map(reader, "dscp_to_priority", maps.dscp_to_priority);
  read_code_map(reader, "pcp_to_priority", maps.pcp_to_priority);
  reader.reject_unknown_keys();
}

// A rule's `in` or `out`: "*" (every port), a port name, or a list of names → port bitmap.
std::optional<tagger::PortMask> read_rule_ports(TableReader& rule, std::string_view key,
                                                const SwitchConfig& config) {
  const toml::node* node = rule.node(key);
  if (!node) {
    rule.problems().expected(rule.raw().source(), rule.key_path(key),
                             "\"*\", a port name or a list of port names", "nothing");
    return std::nullopt;
  }
  tagger::PortMask mask = 0;
  bool ok = true;
  auto add = [&](const toml::node& item, const std::string& path) {
    const auto* name = item.as_string();
    const int port = name ? config.port_index(name->get()) : -1;
    if (name && name->get() == "*") {
      for (size_t p = 0; p < config.ports.size(); ++p)
        mask |= tagger::port_bit(static_cast<int>(p));
    } else if (port >= 0) {
      mask |= tagger::port_bit(port);
    } else {
      std::string names;
      for (const auto& p : config.ports) names += (names.empty() ? "" : ", ") + p.name;
      rule.problems().expected(item.source(), path,
                               fmt::format("\"*\" or a port of this switch ({})", names),
                               describe(item));
      ok = false;
    }
  };
  if (const auto* list = node->as_array()) {
    for (size_t i = 0; i < list->size(); ++i)
      add(*list->get(i), fmt::format("{}[{}]", rule.key_path(key), i));
  } else {
    add(*node, rule.key_path(key));
  }
  if (!ok) return std::nullopt;
  return mask;
}

// [tagger]: Tagger §7. Tags are DSCP values; `tags` maps each lossless tag to its priority.
void read_tagger(TableReader& root, SwitchConfig& config) {
  const toml::table* table = root.table("tagger");
  if (!table) return;
  TableReader reader(*table, "tagger", root.problems());
  ConfigProblems& problems = reader.problems();
  TaggerSettings settings;
  std::array<int, kNumPriorities> tag_of_priority;
  tag_of_priority.fill(-1);
  if (const toml::table* tags = reader.table("tags", true)) {
    for (const auto& [code, value] : *tags) {
      const std::string path = fmt::format("tagger.tags.\"{}\"", code.str());
      const auto tag = parse_code_range(code.str(), 64);
      if (!tag || tag->first != tag->second) {
        problems.expected(code.source(), path, "a tag (DSCP value) in [0, 63]",
                          fmt::format("\"{}\"", code.str()));
        continue;
      }
      const auto* priority = value.as_integer();
      if (!priority || priority->get() < 0 || priority->get() >= kNumPriorities ||
          !has_priority(config.lossless_priorities, static_cast<int>(priority->get()))) {
        problems.expected(value.source(), path,
                          "a lossless priority (one of [switch] lossless_priorities)",
                          describe(value));
        continue;
      }
      const int p = static_cast<int>(priority->get());
      // Theorem 5.1 orders tags, and each tag needs its own queue: two tags in one priority
      // would join G_x and G_y into one queue's dependencies.
      if (tag_of_priority[p] >= 0) {
        problems.expected(value.source(), path,
                          fmt::format("a priority no other tag uses (tag {} already has "
                                      "priority {})",
                                      tag_of_priority[p], p),
                          describe(value));
        continue;
      }
      tag_of_priority[p] = tag->first;
      settings.tag_priority[tag->first] = static_cast<int8_t>(p);
    }
  }
  if (auto v = reader.integer("lossy_tag", 0, 63)) {
    if (settings.tag_priority[*v] >= 0)
      reader.refuse("lossy_tag", "a tag that is not a lossless tag in tagger.tags");
    settings.lossy_tag = static_cast<uint8_t>(*v);
  }
  if (auto v = reader.integer("lossy_priority", 0, kNumPriorities - 1)) {
    if (has_priority(config.lossless_priorities, static_cast<int>(*v)))
      reader.refuse("lossy_priority", "a priority that is not lossless");
    settings.lossy_priority = static_cast<uint8_t>(*v);
  } else if (has_priority(config.lossless_priorities, settings.lossy_priority)) {
    reader.refuse(
        "lossy_priority", "a priority that is not lossless",
        fmt::format("the default {}, which is lossless: set it", settings.lossy_priority));
  }
  if (const toml::array* rules = reader.array("rules")) {
    for (size_t i = 0; i < rules->size(); ++i) {
      const toml::node& item = *rules->get(i);
      const std::string path = fmt::format("tagger.rules[{}]", i);
      const auto* rule_table = item.as_table();
      if (!rule_table) {
        problems.expected(item.source(), path, "a rule { tag = …, in = …, out = …, new_tag = … }",
                          describe(item));
        continue;
      }
      TableReader rule(*rule_table, path, problems);
      auto lossless_tag = [&](std::string_view key) -> std::optional<int> {
        auto v = rule.integer(key, 0, 63, true);
        if (v && settings.tag_priority[*v] < 0) {
          rule.refuse(key, "a lossless tag (a key of tagger.tags)");
          return std::nullopt;
        }
        return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
      };
      const auto tag = lossless_tag("tag");
      const auto in = read_rule_ports(rule, "in", config);
      const auto out = read_rule_ports(rule, "out", config);
      const auto new_tag = lossless_tag("new_tag");
      rule.reject_unknown_keys();
      if (tag && in && out && new_tag) {
        settings.rules.push_back({*tag, *in, *out, *new_tag});
      }
    }
    // Two rules that give one (tag, in, out) different new tags: refused, not first-match,
    // so that a rule set means one thing.
    std::vector<std::string> conflicts;
    std::vector<std::string> port_names;
    for (const auto& p : config.ports) port_names.push_back(p.name);
    if (problems.empty() &&
        !tagger::TagRewriteTable::build(static_cast<int>(config.ports.size()), settings.rules,
                                        conflicts, port_names)) {
      for (const std::string& conflict : conflicts)
        problems.note(rules->source(), "tagger.rules", conflict);
    }
  }
  reader.reject_unknown_keys();
  // Step 1 is the DSCP classifier with the tags' priorities, so a node without FWD (a lab host)
  // classifies what it receives the same way.
  for (int dscp = 0; dscp < 64; ++dscp)
    config.priority_maps.dscp_to_priority[dscp] =
        settings.tag_priority[dscp] >= 0 ? static_cast<uint8_t>(settings.tag_priority[dscp])
                                         : settings.lossy_priority;
  config.tagger = std::move(settings);
}

void read_buffer(TableReader& root, SwitchConfig& config) {
  const toml::table* table = root.table("buffer");
  if (!table) return;
  TableReader reader(*table, "buffer", root.problems());
  if (auto b = reader.bytes("lossless_ingress", 1024, kMaxBufferBytes))
    config.buffer.lossless_ingress_bytes = *b;
  if (auto b = reader.bytes("lossy_pool", 0, kMaxBufferBytes)) config.buffer.lossy_pool_bytes = *b;
  if (auto alpha = reader.number("lossy_alpha", 1.0 / 64, 64))
    config.buffer.lossy_alpha_1024 = static_cast<uint32_t>(*alpha * 1024 + 0.5);
  reader.reject_unknown_keys();
}

}  // namespace

std::vector<std::vector<TaskRef>> testbed_layout(int ports) {
  std::vector<std::vector<TaskRef>> lcores;
  for (int p = 0; p < ports; ++p) lcores.push_back({TaskRef{TaskKind::kRx, p}});
  lcores.push_back({TaskRef{TaskKind::kFwd, -1}});
  for (int p = 0; p < ports; ++p) lcores.push_back({TaskRef{TaskKind::kTx, p}});
  return lcores;
}

std::vector<std::vector<TaskRef>> compact_layout(int ports) {
  std::vector<TaskRef> tasks;
  for (int p = 0; p < ports; ++p) tasks.push_back(TaskRef{TaskKind::kRx, p});
  tasks.push_back(TaskRef{TaskKind::kFwd, -1});
  for (int p = 0; p < ports; ++p) tasks.push_back(TaskRef{TaskKind::kTx, p});
  return {tasks};
}

std::string task_name(const TaskRef& task, const SwitchConfig& config) {
  switch (task.kind) {
    case TaskKind::kFwd:
      return "fwd";
    case TaskKind::kRx:
      return "rx:" + config.ports[task.port].name;
    case TaskKind::kTx:
      return "tx:" + config.ports[task.port].name;
  }
  return "?";
}

SwitchConfig parse_switch_config(std::string_view text, const std::string& file,
                                 const PortRules& rules) {
  return read_switch_config(parse_toml_text(text, file), file, {}, rules);
}

SwitchConfig read_switch_config(const toml::table& root, const std::string& file,
                                std::span<const std::string_view> read_elsewhere,
                                const PortRules& rules) {
  ConfigProblems problems(file);
  SwitchConfig config;
  config.file = file;
  TableReader reader(root, "", problems);
  read_switch_section(reader, config);
  read_eal(reader, config);
  const PortSubTables port_tables =
      read_ports(reader, config, rules);  // before sections naming ports
  read_classify(reader, config);
  read_tagger(reader, config);  // needs ports and lossless priorities
  read_buffer(reader, config);
  read_flow_control(reader, port_tables.flow_control, config);  // needs ports, buffer, priorities
  read_pabo(reader, config);                  // needs flow control, tagger, queueing
  read_pyrrha(reader, config);                // needs flow control, tagger, queueing, PABO
  read_ecn(reader, port_tables.ecn, config);  // needs ports and PABO
  read_fib(reader, config);
  read_layout(reader, config);
  config.metrics = read_metrics(reader);
  config.trace = read_trace(reader);
  for (std::string_view key : read_elsewhere) reader.node(key);
  reader.reject_unknown_keys();
  if (!problems.empty()) throw ConfigError(problems.take());
  config.warnings = problems.take_warnings();
  return config;
}

SwitchConfig load_switch_config(const std::string& path, const PortRules& rules) {
  return parse_switch_config(read_text_file(path), path, rules);
}

}  // namespace fcswitch::config

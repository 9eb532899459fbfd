// Each node's fcswitch config: the shared sections, the node's own keys and tagger rules over
// them, what the lab owns (ports' devices and rates, FIB entries, host MACs); its problems placed.
#include "scenario/scenario_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "config/config_error.h"
#include "config/config_problems.h"
#include "config/switch_config.h"
#include "scenario/toml_overrides.h"
#include "wire/mac_address.h"

namespace fcswitch::lab {

namespace {

// The keys of a port the lab fills in itself.
constexpr std::string_view kPortKeysOwnedByLab[] = {"device", "rate", "tx_descriptors"};

}  // namespace

// The switch's rules from [lab] tagger_rules, as its [tagger] rules.
void ScenarioReader::merge_tagger_rules(const std::string& name, toml::table& merged) {
  if (tagger_rules_file_.empty()) return;
  const toml::array* rules = nullptr;
  if (const toml::table* mine = tagger_rules_.get_as<toml::table>(name))
    rules = mine->get_as<toml::array>("rules");
  if (!rules) {
    node_problems_.push_back(
        fmt::format("{}: [{}] rules: expected the rules of switch {}, "
                    "found nothing (regenerate it with tagger-gen)",
                    tagger_rules_file_, name, name));
    return;
  }
  toml::table* tagger = merged.get_as<toml::table>("tagger");
  if (!tagger) {
    merged.insert("tagger", toml::table{});
    tagger = merged.get_as<toml::table>("tagger");
  }
  tagger->insert_or_assign("rules", *rules);
}

// Each node's fcswitch config: the shared sections, the node's own keys over them, and
// what the lab owns.
void ScenarioReader::build_node_configs() {
  compute_routes();
  for (size_t n = 0; n < sketches_.size(); ++n) {
    const ScenarioNodeSketch& sketch = sketches_[n];
    toml::table merged;
    for (std::string_view section : kScenarioSharedSections)
      if (const toml::node* shared = root_.get(section)) merged.insert(section, *shared);
    toml::table own = *sketch.table;
    own.erase("name");
    const toml::node* routes = own.get("routes");
    std::optional<toml::table> routes_copy;
    if (routes && routes->is_table()) routes_copy = *routes->as_table();
    if (routes && !routes->is_table()) {
      const toml::node* given = sketch.given ? sketch.given->get("routes") : nullptr;
      node_problems_.push_back(where(given ? *given : *routes) +
                               fmt::format("{}.routes: expected a table {{ host = \"port\" }}, "
                                           "found {}",
                                           sketch.name, config::describe(*routes)));
    }
    own.erase("routes");
    // Switch tiers are for tagger-gen's Clos scheme; the datapath has no use for them.
    if (const toml::node* tier = own.get("tier"); tier && !sketch.host) {
      if (!tier->as_integer() || tier->as_integer()->get() < 0 || tier->as_integer()->get() > 7)
        node_problems_.push_back(where(*tier) + fmt::format("{}.tier: expected a tier in [0, 7] "
                                                            "(0: ToR), found {}",
                                                            sketch.name, config::describe(*tier)));
      own.erase("tier");
    }
    std::optional<std::string> mac_text;
    if (sketch.host) {
      if (const auto* mac = own.get_as<std::string>("mac")) mac_text = mac->get();
      own.erase("mac");
    }
    deep_merge(merged, std::move(own));
    if (!sketch.host) merge_tagger_rules(sketch.name, merged);

    toml::table* switch_section = merged.get_as<toml::table>("switch");
    if (!switch_section) {
      merged.insert("switch", toml::table{});
      switch_section = merged.get_as<toml::table>("switch");
    }
    switch_section->insert_or_assign("name", sketch.name);
    // Frames travel in the hosts' mbufs from ring to ring: a switch's own pool holds only
    // flood copies.
    if (!switch_section->contains("mbufs")) switch_section->insert("mbufs", 1023);
    if (sketch.host) {
      merged.insert_or_assign("ports", toml::array{toml::table{{"name", "nic"}}});
    }
    if (toml::array* ports = merged.get_as<toml::array>("ports")) {
      for (size_t p = 0; p < ports->size(); ++p) {
        toml::table* port = ports->get(p)->as_table();
        if (!port) continue;
        for (std::string_view key : kPortKeysOwnedByLab)
          if (const toml::node* given = port->get(key))
            node_problems_.push_back(
                where(*given) +
                fmt::format("{}: ports[{}].{}: set by the lab (its link's FIFO, rate and TX "
                            "ring), found {}",
                            sketch.name, p, key, config::describe(*given)));
        // The port is a FIFO of the lab's link (LinkFifoPortIo); the name says which.
        port->insert_or_assign("device", fmt::format("lab_{}_{}", sketch.name, p));
        port->insert_or_assign("rate", static_cast<int64_t>(link_rate(static_cast<int>(n), p)));
        // The link's TX ring ([lab] tx_ring_frames): at most what TX commits at a time, which
        // buffer-based GFC keeps room for below B_m (PortConfig::committed_frames).
        port->insert_or_assign("tx_descriptors", static_cast<int64_t>(out_.tx_ring_frames));
      }
    }
    size_t fib_from_routes = 0;  // the merged [[fib]]'s first entries: from `routes`
    if (routes_copy) {
      // The copy has no places in the file: a problem is placed at the entry's own key.
      const toml::table* given_routes =
          sketch.given ? sketch.given->get_as<toml::table>("routes") : nullptr;
      toml::array fib;
      for (const auto& [host, port] : *routes_copy) {
        const auto found = names_.find(std::string(host.str()));
        if (found == names_.end() || !sketches_[found->second].host) {
          const auto given =
              given_routes ? given_routes->find(host.str()) : toml::table::const_iterator{};
          const bool placed = given_routes && given != given_routes->cend();
          node_problems_.push_back(
              (placed ? problems_.place(given->first.source()) + ": " : where(port)) +
              fmt::format("{}.routes.{}: expected the name of a host, found a key no host has",
                          sketch.name, host.str()));
          continue;
        }
        toml::table entry;
        entry.insert("mac", host_mac(found->second).to_string());
        entry.insert("port", port);
        fib.push_back(std::move(entry));
      }
      fib_from_routes = fib.size();
      if (toml::array* given = merged.get_as<toml::array>("fib"))
        for (const toml::node& e : *given) fib.push_back(e);
      merged.insert_or_assign("fib", std::move(fib));
    }

    LabNode node;
    node.name = sketch.name;
    node.host = sketch.host;
    try {
      node.config = config::read_switch_config(merged, out_.file);
    } catch (const config::ConfigError& error) {
      for (const std::string& p : error.problems())
        node_config_problems_.add(located(p, sketch, fib_from_routes), sketch.name);
      continue;
    }
    for (const std::string& w : node.config.warnings)
      node_config_warnings_.add(located(w, sketch, fib_from_routes), sketch.name);
    // The lab predicts Pyrrha's onward paths from its routes (lab/lab_path_oracle.h) and
    // knows which ports face hosts: fcswitch's table of them would be ignored.
    // A network file is fcswitch's way to the same prediction.
    if (const auto& pyrrha = node.config.pyrrha;
        pyrrha && (!pyrrha->paths.empty() || !pyrrha->host_ports.empty() || pyrrha->network))
      node_config_problems_.add(
          located(fmt::format("{}:0:0: pyrrha.{}: expected no table of paths or network in a "
                              "lab scenario (the lab predicts them from its routes), found one",
                              out_.file,
                              pyrrha->network         ? "network"
                              : pyrrha->paths.empty() ? "host_ports"
                                                      : "paths"),
                  sketch, fib_from_routes),
          sketch.name);
    node.static_fib = node.config.fib;  // its own `routes` and [[fib]]: they win
    if (out_.routing.initial && out_.routing.topology_switch[n] >= 0) {
      const int sw = out_.routing.topology_switch[n];
      if (node.config.ecmp_seed == 0) node.config.ecmp_seed = out_.routing.ecmp_seeds[sw];
      const auto routed =
          out_.routing.fib(static_cast<int>(n), *out_.routing.initial, fib_macs(node.static_fib));
      node.config.fib.insert(node.config.fib.end(), routed.begin(), routed.end());
    }
    if (sketch.host) {
      node.mac = host_mac(n);  // the given one if it parses
      const auto parsed = mac_text ? wire::MacAddress::parse(*mac_text) : std::nullopt;
      if (mac_text && (!parsed || parsed->is_multicast()))
        node_problems_.push_back(
            fmt::format("{}: hosts {}: mac: expected a unicast MAC address, found \"{}\"",
                        out_.file, sketch.name, *mac_text));
      node.config.ports[0].mac = node.mac;
    }
    out_.nodes.push_back(std::move(node));
  }
  // A switch's FIB holds at most every host's MAC, routed or learned, and its own [[fib]]:
  // room for twice that (a cuckoo hash at half load never refuses a key), at least 1 024.
  const auto hosts = static_cast<size_t>(
      std::count_if(sketches_.begin(), sketches_.end(), [](const auto& s) { return s.host; }));
  for (LabNode& node : out_.nodes)
    if (!node.host)
      node.config.fib_entries = std::max<uint32_t>(
          1024, std::bit_ceil(static_cast<uint32_t>(2 * (hosts + node.static_fib.size()))));
}

// A node's config is read from a table the lab merged (the shared sections, the node's
// entry, its tagger rules), and toml++ does not copy a node's place in the file: a problem
// there reads "FILE:0:0: key: …". Put back the place the node got the key from, in the
// order the merge gave it: its tagger rules, its own entry, a --set, a shared section; a key
// found nowhere (a missing one) is placed at the node's entry.
std::string ScenarioReader::located(const std::string& problem, const ScenarioNodeSketch& sketch,
                                    size_t fib_from_routes) const {
  const std::string unplaced = out_.file + ":0:0: ";
  if (problem.rfind(unplaced, 0) != 0) return problem;
  const std::string message = problem.substr(unplaced.size());
  const size_t key_end = message.find(": ");
  if (key_end == std::string::npos) return problem;
  const std::string key = message.substr(0, key_end);
  const auto placed = [&](const toml::node* node,
                          const std::string& file) -> std::optional<std::string> {
    if (!node || !node->source().begin) return std::nullopt;
    return fmt::format("{}: {}", config::ConfigProblems::place(file, node->source()), message);
  };
  if (!sketch.host && !tagger_rules_file_.empty() && key.rfind("tagger.rules", 0) == 0)
    if (auto at =
            placed(tagger_rules_.at_path(sketch.name + key.substr(6)).node(), tagger_rules_file_))
      return *at;
  if (const std::string own = given_key(key, sketch, fib_from_routes); sketch.given && !own.empty())
    if (auto at = placed(sketch.given->at_path(own).node(), out_.file)) return *at;
  if (auto at = placed(reader_.raw().at_path(key).node(), out_.file)) return *at;
  const toml::node* entry = sketch.given ? sketch.given : reader_.raw().get("topology");
  if (auto at = placed(entry, out_.file)) return *at;
  return problem;
}

// `key` of the merged config as a path in the node's own entry: a generated switch's
// overriding entry numbers its ports after the generated ones, and the merged [[fib]] lists
// the entry's `routes` first.
std::string ScenarioReader::given_key(const std::string& key, const ScenarioNodeSketch& sketch,
                                      size_t fib_from_routes) {
  if (auto own = renumbered(key, "ports", sketch.given_port_offset, "")) return *own;
  if (auto own = renumbered(key, "fib", fib_from_routes, "routes")) return *own;
  return key;
}

// `array[i]rest` as `array[i − offset]rest`, or `below` for an i under the offset; nothing
// for a key of another array.
std::optional<std::string> ScenarioReader::renumbered(const std::string& key,
                                                      std::string_view array, size_t offset,
                                                      std::string_view below) {
  if (key.size() <= array.size() || key.compare(0, array.size(), array) != 0 ||
      key[array.size()] != '[')
    return std::nullopt;
  const size_t open = array.size() + 1, close = key.find(']', open);
  size_t index = 0;
  if (close == std::string::npos) return std::nullopt;
  const auto [end, error] = std::from_chars(key.data() + open, key.data() + close, index);
  if (error != std::errc{} || end != key.data() + close) return std::nullopt;
  if (index < offset) return std::string(below);
  return fmt::format("{}[{}]{}", array, index - offset, key.substr(close + 1));
}

uint64_t ScenarioReader::link_rate(int node, size_t port) const {
  for (const LabLinkSpec& link : out_.links)
    if ((link.a.node == node && link.a.port == static_cast<int>(port)) ||
        (link.b.node == node && link.b.port == static_cast<int>(port)))
      return link.rate_bps;
  return 10'000'000'000;
}

wire::MacAddress ScenarioReader::host_mac(size_t node) const {
  // Locally administered, unicast: 02:00:00:00:NN:NN by node index (+1).
  if (const auto* given = sketches_[node].table->get_as<std::string>("mac"))
    if (auto mac = wire::MacAddress::parse(given->get())) return *mac;
  return wire::MacAddress{0x02'00'00'00'00'00ull + node + 1};
}

}  // namespace fcswitch::lab

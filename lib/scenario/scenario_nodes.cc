// [[hosts]], [[switches]] (a generated switch's overrides among them) and [[links]]: each
// node's sketch, and the ports the links and events name.
#include "scenario/scenario_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config_problems.h"
#include "config/table_reader.h"

namespace fcswitch::lab {

using config::TableReader;

void ScenarioReader::read_nodes(std::string_view key, bool hosts) {
  const toml::array* array = reader_.array(key);
  if (!array) return;
  for (size_t i = 0; i < array->size(); ++i) {
    const toml::node& node = *array->get(i);
    const std::string path = fmt::format("{}[{}]", key, i);
    const toml::table* table = node.as_table();
    if (!table) {
      problems_.expected(node.source(), path, "a table", config::describe(node));
      continue;
    }
    ScenarioNodeSketch sketch;
    sketch.host = hosts;
    sketch.table = table;
    sketch.given = table;
    const toml::node* name = table->get("name");
    if (!name || !name->is_string()) {
      problems_.expected(name ? name->source() : table->source(), path + ".name", "a node name",
                         name ? config::describe(*name) : "nothing");
      continue;
    }
    sketch.name = name->as_string()->get();
    if (!valid_scenario_node_name(sketch.name)) {
      problems_.expected(name->source(), path + ".name",
                         "1 to 12 characters of [A-Za-z0-9_-] (it prefixes DPDK object names)",
                         config::describe(*name));
      continue;
    }
    if (left_out_.count(sketch.name)) {
      problems_.note(name->source(), path + ".name",
                     fmt::format("\"{}\" names a switch left out of the network: every link of "
                                 "it failed ([topology.failures])",
                                 sketch.name));
      continue;
    }
    if (const auto taken = names_.find(sketch.name); taken != names_.end()) {
      ScenarioNodeSketch& generated = sketches_[taken->second];
      if (generated.generated && !generated.host && !hosts && !generated.overridden) {
        override_generated(generated, *table, path);
        continue;
      }
      problems_.note(name->source(), path + ".name",
                     fmt::format("\"{}\" names another node already{}", sketch.name,
                                 generated.generated && (hosts || generated.host)
                                     ? " (of [topology]: a [[switches]] entry may override a "
                                       "generated switch, nothing may override a host)"
                                     : ""));
      continue;
    }
    names_.emplace(sketch.name, sketches_.size());
    if (hosts) {
      sketch.ports.push_back("nic");
    } else if (const toml::array* ports = table->get_as<toml::array>("ports")) {
      for (size_t p = 0; p < ports->size(); ++p)
        if (ports->get(p)->as_table())
          add_port_name(sketch, *ports->get(p), fmt::format("{}.ports[{}]", path, p));
    }
    sketches_.push_back(std::move(sketch));
  }
}

// A port's name (empty where it has none: the switch config reader says so), refused when
// another port of the node has it: a link could not tell the two apart.
void ScenarioReader::add_port_name(ScenarioNodeSketch& sketch, const toml::node& port,
                                   const std::string& path) {
  const auto* table = port.as_table();
  const auto* name = table ? table->get_as<std::string>("name") : nullptr;
  if (name &&
      std::find(sketch.ports.begin(), sketch.ports.end(), name->get()) != sketch.ports.end()) {
    problems_.note(
        name->source(), path + ".name",
        fmt::format("\"{}\" names another port of {} already", name->get(), sketch.name));
    sketch.duplicate_ports.push_back(sketch.ports.size());
  }
  sketch.ports.push_back(name ? name->get() : std::string());
}

// A [[switches]] entry naming a generated switch: its keys over the generated ones, its
// `ports` added after the generated ports (for [[links]] of the scenario's own).
void ScenarioReader::override_generated(ScenarioNodeSketch& sketch, const toml::table& table,
                                        const std::string& path) {
  sketch.given = &table;
  sketch.given_port_offset = sketch.ports.size();
  toml::table merged = *sketch.table;
  toml::array* ports = merged.get_as<toml::array>("ports");
  for (const auto& [key, node] : table) {
    if (key.str() != "ports") {
      merged.insert_or_assign(key, node);
      continue;
    }
    const toml::array* extra = node.as_array();
    if (!extra) {
      problems_.expected(node.source(), path + ".ports", "a list of ports to add",
                         config::describe(node));
      continue;
    }
    for (size_t p = 0; p < extra->size(); ++p) {
      ports->push_back(*extra->get(p));
      add_port_name(sketch, *extra->get(p), fmt::format("{}.ports[{}]", path, p));
    }
  }
  if (const toml::node* tier = table.get("tier"); tier && tier->as_integer())
    sketch.tier = static_cast<int>(tier->as_integer()->get());
  owned_tables_.push_back(std::move(merged));
  sketch.table = &owned_tables_.back();
  sketch.overridden = true;
}

// "S1:p2" for a switch port, "H1" for a host.
std::optional<PortRef> ScenarioReader::port_ref(TableReader& r, std::string_view key) {
  auto text = r.string(key, true);
  if (!text) return std::nullopt;
  const size_t colon = text->find(':');
  const std::string node_name = text->substr(0, colon);
  const auto found = names_.find(node_name);
  if (found != names_.end()) {
    const ScenarioNodeSketch& node = sketches_[found->second];
    if (node.host && colon == std::string::npos) return PortRef{static_cast<int>(found->second), 0};
    if (!node.host && colon != std::string::npos) {
      const std::string port = text->substr(colon + 1);
      for (size_t p = 0; p < node.ports.size(); ++p)
        if (node.ports[p] == port)
          return PortRef{static_cast<int>(found->second), static_cast<int>(p)};
    }
  }
  r.refuse(key, left_out_.count(node_name)
                    ? "a host name, or switch:port of a switch in the network (every link of "
                      "this one failed before the run: it is left out)"
                    : "a host name, or switch:port with a port in that switch's ports");
  return std::nullopt;
}

void ScenarioReader::read_links() {
  std::map<std::pair<int, int>, std::string> used;        // (node, port) → its link
  std::map<std::string, int, std::less<>> misnamed_ends;  // refused links' ends, by node
  for (const LabLinkSpec& link : generated_links_) {
    for (const PortRef& end : {link.a, link.b})
      used.emplace(std::pair{end.node, end.port}, "a link of [topology]");
    out_.links.push_back(link);
  }
  const toml::array* array = reader_.array("links", !generates_);
  for (size_t i = 0; array && i < array->size(); ++i) {
    const toml::node& node = *array->get(i);
    const std::string path = fmt::format("links[{}]", i);
    const toml::table* table = node.as_table();
    if (!table) {
      problems_.expected(node.source(), path, "a table { a, b, rate, delay }",
                         config::describe(node));
      continue;
    }
    TableReader r(*table, path, problems_);
    LabLinkSpec link;
    link.rate_bps = link_defaults_.rate_bps;
    link.delay_ns = link_defaults_.delay_ns;
    auto a = port_ref(r, "a");
    auto b = port_ref(r, "b");
    if (auto rate = r.rate_bps("rate", 1'000'000, 400'000'000'000)) link.rate_bps = *rate;
    if (auto delay = r.duration_ns("delay", 0, kNsPerSecond)) link.delay_ns = *delay;
    r.reject_unknown_keys();
    if (!a || !b) {
      // Refused: its good end is not also "a port without a link"; its bad end is counted
      // against the node it names (below).
      for (const auto& [end, ref] : {std::pair{"a", a}, std::pair{"b", b}}) {
        if (ref) {
          used.emplace(std::pair{ref->node, ref->port}, path);
        } else if (const auto* text = table->get_as<std::string>(end)) {
          ++misnamed_ends[text->get().substr(0, text->get().find(':'))];
        }
      }
      continue;
    }
    link.a = *a;
    link.b = *b;
    for (std::string_view end : {"a", "b"}) {
      const PortRef ref = end == "a" ? *a : *b;
      if (!used.emplace(std::pair{ref.node, ref.port}, path).second)
        r.refuse(end,
                 fmt::format("a port no other link uses ({} does)", used[{ref.node, ref.port}]));
    }
    out_.links.push_back(link);
  }
  for (size_t n = 0; n < sketches_.size(); ++n) {
    std::vector<size_t> unlinked;
    const std::vector<size_t>& duplicates = sketches_[n].duplicate_ports;  // refused already
    for (size_t p = 0; p < sketches_[n].ports.size(); ++p)
      if (!used.count({static_cast<int>(n), static_cast<int>(p)}) &&
          std::find(duplicates.begin(), duplicates.end(), p) == duplicates.end())
        unlinked.push_back(p);
    // A node with no more ports left unlinked than refused ends name it: those are the ports
    // the ends meant (one line for one bad name). More, and some are unlinked of their own.
    const auto misnamed = misnamed_ends.find(sketches_[n].name);
    if (misnamed != misnamed_ends.end() && unlinked.size() <= static_cast<size_t>(misnamed->second))
      continue;
    for (const size_t p : unlinked)
      problems_.note(sketches_[n].table->source(),
                     sketches_[n].host
                         ? sketches_[n].name
                         : fmt::format("{}:{}", sketches_[n].name, sketches_[n].ports[p]),
                     "a port without a link (every port needs one)");
  }
}

}  // namespace fcswitch::lab

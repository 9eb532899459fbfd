#include "scenario_topology.h"

#include <fmt/format.h>

#include <toml++/toml.h>
#include <algorithm>
#include <stdexcept>

namespace fcswitch::tagger_gen {

namespace {

[[noreturn]] void fail(const std::string& file, const toml::node& at, const std::string& what) {
  const auto& where = at.source().begin;
  throw std::runtime_error(fmt::format("{}:{}:{}: {}", file, where.line, where.column, what));
}

}  // namespace

topology::Topology read_scenario_topology(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    const auto& at = error.source().begin;
    throw std::runtime_error(
        fmt::format("{}:{}:{}: not valid TOML: {}", path, at.line, at.column, error.description()));
  }
  topology::Topology topo;
  const toml::array* switches = root.get_as<toml::array>("switches");
  if (!switches) throw std::runtime_error(path + ": no [[switches]]");
  for (size_t i = 0; i < switches->size(); ++i) {
    const toml::table* s = switches->get(i)->as_table();
    if (!s) fail(path, *switches->get(i), fmt::format("switches[{}]: expected a table", i));
    const auto* name = s->get_as<std::string>("name");
    if (!name) fail(path, *s, fmt::format("switches[{}].name: expected a string", i));
    int tier = -1;
    if (const auto* t = s->get_as<int64_t>("tier")) tier = static_cast<int>(t->get());
    const int sw = topo.add_switch(name->get(), tier);
    const toml::array* ports = s->get_as<toml::array>("ports");
    if (!ports) fail(path, *s, fmt::format("switches[{}].ports: expected a list", i));
    for (const toml::node& port : *ports) {
      const toml::table* pt = port.as_table();
      const auto* port_name = pt ? pt->get_as<std::string>("name") : nullptr;
      if (!port_name)
        fail(path, port, fmt::format("switches[{}].ports: expected {{ name = … }}", i));
      topo.add_port(sw, port_name->get());
    }
  }
  std::vector<std::string> hosts;
  if (const toml::array* list = root.get_as<toml::array>("hosts"))
    for (const toml::node& h : *list)
      if (const auto* t = h.as_table())
        if (const auto* name = t->get_as<std::string>("name")) hosts.push_back(name->get());
  auto is_host = [&](const std::string& n) {
    return std::find(hosts.begin(), hosts.end(), n) != hosts.end();
  };
  const toml::array* links = root.get_as<toml::array>("links");
  if (!links) throw std::runtime_error(path + ": no [[links]]");
  for (size_t i = 0; i < links->size(); ++i) {
    const toml::table* l = links->get(i)->as_table();
    const auto* a = l ? l->get_as<std::string>("a") : nullptr;
    const auto* b = l ? l->get_as<std::string>("b") : nullptr;
    if (!a || !b) fail(path, *links->get(i), fmt::format("links[{}]: expected a and b", i));
    auto end = [&](const toml::value<std::string>& text) -> std::pair<int, int> {
      const std::string s = text.get();
      const size_t colon = s.find(':');
      if (colon == std::string::npos) {
        if (!is_host(s)) fail(path, text, fmt::format("links[{}]: \"{}\" is no host", i, s));
        return {-1, -1};
      }
      const int sw = topo.switch_index(s.substr(0, colon));
      const int port = sw < 0 ? -1 : topo.port_index(sw, s.substr(colon + 1));
      if (port < 0) fail(path, text, fmt::format("links[{}]: \"{}\" is no switch port", i, s));
      return {sw, port};
    };
    const auto [sa, pa] = end(*a);
    const auto [sb, pb] = end(*b);
    try {
      if (sa >= 0 && sb >= 0) {
        topo.link(sa, pa, sb, pb);
      } else if (sa >= 0 && sb < 0) {
        topo.attach_host(sa, b->get(), pa);
      } else if (sb >= 0 && sa < 0) {
        topo.attach_host(sb, a->get(), pb);
      } else {
        fail(path, *l, fmt::format("links[{}]: two hosts linked directly", i));
      }
    } catch (const std::invalid_argument& e) {
      fail(path, *l, fmt::format("links[{}]: {}", i, e.what()));
    }
  }
  topo.finish();
  return topo;
}

}  // namespace fcswitch::tagger_gen

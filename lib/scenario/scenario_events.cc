// [[events]]: links failed and restored and routes given during the run, and the check that
// the routes from each event on still take every flow where it goes.
#include "scenario/scenario_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/config_problems.h"
#include "config/switch_config.h"
#include "config/table_reader.h"
#include "scenario/scenario_route_walk.h"
#include "topology/host_table.h"
#include "topology/link_failures.h"
#include "topology/route_table.h"

namespace fcswitch::lab {

using config::TableReader;

// [[events]]: at `at`, `fail` or `restore` a link (named by a port at either end;
// `reroute`, default true, recomputes the routes), or give switch `switch` new `routes`.
void ScenarioReader::read_events() {
  const toml::array* array = reader_.array("events");
  if (!array) return;
  for (size_t i = 0; i < array->size(); ++i) {
    const toml::node& node = *array->get(i);
    const std::string path = fmt::format("events[{}]", i);
    const toml::table* table = node.as_table();
    if (!table) {
      problems_.expected(node.source(), path, "a table { at, fail | restore | switch }",
                         config::describe(node));
      continue;
    }
    TableReader r(*table, path, problems_);
    LabEvent event;
    event_entry_.push_back(where(node) + path);
    if (auto at = r.duration_ns("at", 0, kScenarioMaxDurationNs)) {
      event.at_ns = *at;
      if (out_.duration_ns && *at >= out_.duration_ns)
        r.refuse("at", fmt::format("a time before the end of the run ({} ns)", out_.duration_ns),
                 fmt::format("{} ns", *at));
    } else if (!table->contains("at")) {
      r.refuse("at", "a time (\"2ms\")", "nothing");
    }
    const int actions =
        table->contains("fail") + table->contains("restore") + table->contains("switch");
    if (actions != 1) r.refuse("fail", "exactly one of fail, restore or switch (with routes)");
    for (std::string_view key : {"fail", "restore"}) {
      if (!table->contains(key)) continue;
      event.kind = key == "fail" ? LabEvent::Kind::kFailLink : LabEvent::Kind::kRestoreLink;
      if (auto port = port_ref(r, key)) {
        for (size_t l = 0; l < out_.links.size(); ++l)
          if ((out_.links[l].a.node == port->node && out_.links[l].a.port == port->port) ||
              (out_.links[l].b.node == port->node && out_.links[l].b.port == port->port))
            event.link = static_cast<int>(l);
        if (event.link < 0) r.refuse(key, "a port with a link");
      }
      if (auto reroute = r.boolean("reroute")) event.reroute = *reroute;
    }
    if (table->contains("switch")) {
      event.kind = LabEvent::Kind::kRoute;
      const auto name = r.string("switch");
      const auto found = name ? names_.find(*name) : names_.end();
      if (found == names_.end() || sketches_[found->second].host) {
        r.refuse("switch", name && left_out_.count(*name)
                               ? "the name of a switch in the network (every link of this one "
                                 "failed before the run: it is left out)"
                               : "the name of a switch");
      } else {
        event.node = static_cast<int>(found->second);
      }
      event_routes_.push_back(r.table("routes", true));
    } else {
      event_routes_.push_back(nullptr);
    }
    r.reject_unknown_keys();
    out_.events.push_back(std::move(event));
  }
}

// An event's `routes` { host = port or [ports] }, read as the switch's [[fib]] is.
void ScenarioReader::read_event_routes() {
  for (size_t i = 0; i < out_.events.size(); ++i) {
    LabEvent& event = out_.events[i];
    if (event.kind != LabEvent::Kind::kRoute || !event_routes_[i] || event.node < 0) continue;
    // Read as a switch's [[fib]] port is: a port, or a list of them (ECMP).
    TableReader r(*event_routes_[i], fmt::format("events[{}].routes", i), problems_);
    for (const auto& [key, value] : *event_routes_[i]) {
      const std::string host(key.str());
      const auto found = names_.find(host);
      if (found == names_.end() || !sketches_[found->second].host) {
        r.refuse(host, "a route to a host in [[hosts]]");
        continue;
      }
      config::FibEntry entry{host_mac(found->second), -1, {}};
      if (config::resolve_fib_ports(r, host, config::fib_port_names(r, host),
                                    out_.nodes[event.node].config, entry))
        event.routes.push_back(std::move(entry));
    }
  }
}

// The routes from an event on ([[events]]: a fail or restore with reroute recomputes them
// around the links down then, a `switch` event replaces that switch's own) that leave a
// switch some flow's frames reach without a route, where it does not learn: the frames
// would be flooded to every host from then on. Refused, as such routes before the run are
// (check_flow_routes), unless [lab] flood_unrouted says it is meant. Frames sent into a
// link that is down are lost there and counted: a walk ends at it (so without reroute the
// routes stay, and nothing floods). The events are replayed as LabNetwork applies them: in
// time order, each time's together (no frame moves between them), the routes recomputed at
// each rerouting event around the links down at that moment. Whether a flow still runs then
// is not asked.
void ScenarioReader::check_event_failures() {
  const LabRouting& routing = out_.routing;
  const bool computed = routing.mode != RoutingMode::kStatic && routing.initial;
  std::vector<size_t> order(out_.events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return out_.events[a].at_ns < out_.events[b].at_ns; });
  std::unordered_map<uint64_t, topology::HostId> host_of_mac;
  for (topology::HostId h = 0; h < static_cast<topology::HostId>(routing.macs.size()); ++h)
    host_of_mac.emplace(routing.macs[h].value, h);
  std::vector<std::vector<config::FibEntry>> static_fib(out_.nodes.size());
  for (size_t n = 0; n < out_.nodes.size(); ++n) static_fib[n] = out_.nodes[n].static_fib;
  const std::vector<std::vector<PortRef>> wired = out_.peers();
  std::vector<std::vector<PortRef>> peers = wired;  // a link that is down leads nowhere
  std::vector<topology::SwitchLink> failed;
  std::optional<topology::RouteTable> rerouted;  // none: the routes before any event
  for (size_t k = 0; k < order.size();) {
    const uint64_t at_ns = out_.events[order[k]].at_ns;
    // The event a refusal names: the time's last that changed routes, else its last that
    // let frames through again (a restore), else its last. A cut without rerouting only
    // ends walks earlier: it cannot be the cause.
    enum Blame { kCannotCause, kRestored, kRoutesChanged };
    size_t blamed = order[k];
    Blame blame = kCannotCause;
    const auto could_cause = [&](Blame b) {
      if (b < blame) return;
      blamed = order[k];
      blame = b;
    };
    for (; k < order.size() && out_.events[order[k]].at_ns == at_ns; ++k) {
      const LabEvent& event = out_.events[order[k]];
      could_cause(kCannotCause);
      if (event.kind == LabEvent::Kind::kRoute) {
        replace_static_routes(static_fib[event.node], event.routes);
        could_cause(kRoutesChanged);
        continue;
      }
      const LabLinkSpec& spec = out_.links[event.link];
      const bool up = event.kind == LabEvent::Kind::kRestoreLink;
      peers[spec.a.node][spec.a.port] = up ? wired[spec.a.node][spec.a.port] : PortRef{};
      peers[spec.b.node][spec.b.port] = up ? wired[spec.b.node][spec.b.port] : PortRef{};
      if (up) could_cause(kRestored);
      if (!computed) continue;  // static routes: nothing to recompute
      const auto link = routing.switch_link(spec.a.node, spec.a.port, spec.b.node, spec.b.port);
      if (!link) continue;  // a host's own link: nothing to route around
      std::erase(failed, *link);
      if (!up) failed.push_back(*link);
      if (event.reroute) {
        rerouted = routing.routes(failed);
        could_cause(kRoutesChanged);
      }
    }
    const topology::RouteTable* table =
        computed ? (rerouted ? &*rerouted : &*routing.initial) : nullptr;
    config::FibEntry computed_entry;
    const auto route = [&](int node, uint64_t mac) -> const config::FibEntry* {
      for (const config::FibEntry& e : static_fib[node])
        if (e.mac.value == mac) return &e;  // its own routes win
      const int sw = table ? routing.topology_switch[node] : -1;
      const auto host = host_of_mac.find(mac);
      if (sw < 0 || host == host_of_mac.end()) return nullptr;
      const topology::PortGroup& group = table->next_ports(sw, host->second);
      if (group.empty()) return nullptr;
      computed_entry = config::FibEntry{wire::MacAddress{mac}, group.front(), {}};
      if (group.size() > 1) computed_entry.group = group;
      return &computed_entry;
    };
    std::unordered_map<int, std::vector<bool>> routed_to;
    bool refused = false;
    walk_flows(peers, true, route, routed_to,
               [&](int flow, int dst, int at, const std::string& target, bool said) {
                 if (said) return true;
                 refused = true;
                 // Not the events': the routes before them failed this walk the same way.
                 if (at_ns == 0 && pre_run_refusals_.contains({flow, dst, at})) {
                   node_problems_.push_back(unrouted_flow_line(flow, target, at));
                   return out_.flows[flow].closed_loop < 0;
                 }
                 node_problems_.push_back(fmt::format(
                     "{}: expected the routes from here on to take every flow to its "
                     "destination ({}[lab] flood_unrouted = true floods them), found none to "
                     "{} at {} ({})",
                     event_entry_[blamed],
                     blame == kRoutesChanged && out_.events[blamed].kind != LabEvent::Kind::kRoute
                         ? "reroute = false keeps the routes, and the frames are lost at the "
                           "cut link; "
                         : "",
                     target, sketches_[at].name, flow_name(flow)));
                 return false;  // one line for one bad event
               });
    if (refused) return;
  }
}

}  // namespace fcswitch::lab

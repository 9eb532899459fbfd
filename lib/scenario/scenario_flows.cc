// [transport], [[flows]] and [[workloads]]: the flows between the scenario's hosts, each with
// the entry that gave it (for the messages about its routes).
#include "scenario/scenario_reader.h"

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "config/config_problems.h"
#include "config/table_reader.h"
#include "scenario/flow_shape_reader.h"
#include "scenario/flow_transport.h"
#include "scenario/workload_flows.h"
#include "scenario/workload_hosts.h"
#include "scenario/workload_spec.h"

namespace fcswitch::lab {

using config::TableReader;

std::optional<int> ScenarioReader::host_named(TableReader& r, std::string_view key,
                                              const toml::node& node) {
  const auto* text = node.as_string();
  if (text) {
    const auto found = names_.find(text->get());
    if (found != names_.end() && sketches_[found->second].host)
      return static_cast<int>(found->second);
  }
  problems_.expected(node.source(), r.key_path(key), "the name of a host in [[hosts]]",
                     config::describe(node));
  return std::nullopt;
}

// [transport] (lab/flow_transport.h), before the flows that check their windows against it.
void ScenarioReader::read_transport() {
  out_.transport = read_transport_settings(reader_, kScenarioMaxDurationNs);
}

void ScenarioReader::read_flows() {
  std::mt19937_64 random(out_.seed);
  reader_.each_table("flows", [&](TableReader& r, size_t i) {
    const toml::table* table = &r.raw();
    const toml::node& node = *table;
    const std::string path = fmt::format("flows[{}]", i);
    FlowSpec flow;
    const std::string pattern =
        r.choice("pattern", {"constant", "on-off", "incast"}).value_or("constant");
    std::vector<int> sources;
    if (const toml::node* from = r.node("from")) {
      if (const auto* list = from->as_array()) {
        if (list->empty()) r.refuse("from", "a host or a list of hosts", "an empty list");
        for (const toml::node& item : *list)
          if (auto h = host_named(r, "from", item)) sources.push_back(*h);
      } else if (from->is_string()) {
        if (auto h = host_named(r, "from", *from)) sources.push_back(*h);
      }
    } else {
      problems_.expected(table->source(), path + ".from", "a host or a list of hosts", "nothing");
    }
    if (pattern == "incast" && table->get("from") && !table->get_as<toml::array>("from"))
      r.refuse("from", "a list of at least two hosts for an incast");
    std::optional<int> dst;
    if (const toml::node* to = r.node("to")) {
      dst = host_named(r, "to", *to);
    } else {
      problems_.expected(table->source(), path + ".to", "a host", "nothing");
    }
    read_flow_shape(r, pattern, out_.transport, flow);
    // A flow that would start after the run has ended sends nothing: refused, as an event
    // there is.
    if (out_.duration_ns && flow.start_ns >= out_.duration_ns)
      r.refuse("start", fmt::format("a time before the end of the run ({} ns)", out_.duration_ns),
               fmt::format("{} ns", flow.start_ns));
    r.reject_unknown_keys();
    if (!dst) return;
    for (int src : sources) {
      if (src == *dst) {
        r.refuse("to", "a host other than the source");
        continue;
      }
      FlowSpec one = flow;
      one.id = static_cast<int>(out_.flows.size());
      flow_entry_.push_back(where(node) + path);
      one.src = src;
      one.dst = *dst;
      if (out_.start_jitter_ns) {
        const uint64_t jitter = random() % out_.start_jitter_ns;
        one.start_ns += jitter;
        if (one.stop_ns != kNeverTicks) one.stop_ns += jitter;
      }
      out_.flows.push_back(one);
    }
  });
}

// [[workloads]] (lab/workload_spec.h): flows drawn from a distribution, appended to
// [[flows]] before the run.
void ScenarioReader::read_workloads() {
  std::vector<std::string> names;
  std::vector<bool> is_host;
  for (const ScenarioNodeSketch& s : sketches_) {
    names.push_back(s.name);
    is_host.push_back(s.host);
  }
  const HostInfo hosts = host_info_from_links(names, is_host, out_.links);
  const WorkloadFiles files{std::filesystem::path(out_.file).parent_path().string(),
                            FCSWITCH_WORKLOAD_DIR};
  const std::vector<WorkloadSpec> specs =
      lab::read_workloads(reader_, hosts, files, out_.transport);
  if (specs.empty() || !problems_.empty()) return;
  std::vector<size_t> workload_of;  // per generated flow: its [[workloads]] entry
  std::vector<FlowSpec> flows =
      expand_workloads(specs, hosts, out_.duration_ns, out_.seed, &workload_of, &out_.closed_loops);
  for (size_t i = 0; i < flows.size(); ++i) {
    flows[i].id = static_cast<int>(out_.flows.size());
    flow_entry_.push_back(specs[workload_of[i]].where);
    out_.flows.push_back(flows[i]);
  }
}

}  // namespace fcswitch::lab

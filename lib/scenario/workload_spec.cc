#include "scenario/workload_spec.h"

#include "scenario/flow_shape_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <span>
#include <stdexcept>

#include "config/config_problems.h"
#include "core/tick_rate.h"
#include "workload/cdf_error.h"

namespace fcswitch::lab {

namespace {

using config::TableReader;

constexpr uint64_t kMaxWorkloadNs = 3600ull * kNsPerSecond;  // as the lab's own durations
// A burst's flows are all expanded before the run: 10 million FlowSpecs are about 1 GB, far
// beyond any figure's need (Pyrrha Fig. 7 at k = 12: 15 840), and a typo's 10^6 flows a host
// would otherwise exhaust memory instead of being refused.
constexpr uint64_t kMaxBurstFlows = 10'000'000;

// The keys each kind has besides the ones all kinds share (read_common's).
struct KindKeys {
  WorkloadKind kind;
  std::string_view name;
  std::span<const std::string_view> keys;
};
constexpr std::string_view kPoissonKeys[] = {"cdf", "load", "stop"};
constexpr std::string_view kIncastKeys[] = {"senders", "size", "size_mtus", "period",
                                            "load",    "to",   "jitter",    "stop"};
constexpr std::string_view kBurstKeys[] = {"flows", "size", "to"};
constexpr std::string_view kClosedLoopKeys[] = {"cdf", "stop"};
// In WorkloadKind's order.
constexpr KindKeys kKinds[] = {{WorkloadKind::kPoisson, "poisson", kPoissonKeys},
                               {WorkloadKind::kIncast, "incast", kIncastKeys},
                               {WorkloadKind::kBurst, "burst", kBurstKeys},
                               {WorkloadKind::kClosedLoop, "closed-loop", kClosedLoopKeys}};

const KindKeys& kind_keys(WorkloadKind kind) {
  return kKinds[static_cast<size_t>(kind)];
}

bool has_key(std::span<const std::string_view> keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// `load` in (0, 1]: TableReader::number takes closed ranges, and a load of 0 generates nothing.
std::optional<double> read_load(TableReader& r) {
  const toml::node* node = r.node("load");
  if (!node) return std::nullopt;
  std::optional<double> value;
  if (const auto* f = node->as_floating_point()) value = f->get();
  if (const auto* i = node->as_integer()) value = static_cast<double>(i->get());
  if (!value || !(*value > 0) || *value > 1) {
    r.problems().expected(node->source(), r.key_path("load"), "a load in (0, 1]",
                          config::describe(*node));
    return std::nullopt;
  }
  return value;
}

// A host name, or a list of them, each one of `hosts` and given once. False on any problem.
bool read_host_names(TableReader& r, std::string_view key, const HostInfo& hosts,
                     std::vector<std::string>& out) {
  const toml::node* node = r.node(key);
  if (!node) return true;
  std::vector<const toml::node*> items;
  if (const auto* list = node->as_array()) {
    for (const toml::node& item : *list) items.push_back(&item);
  } else {
    items.push_back(node);
  }
  if (items.empty()) {
    r.problems().expected(node->source(), r.key_path(key), "a host or a non-empty list of hosts",
                          config::describe(*node));
    return false;
  }
  bool ok = true;
  std::set<std::string, std::less<>> seen;
  for (const toml::node* item : items) {
    const auto* text = item->as_string();
    if (!text || hosts.find(text->get()) < 0) {
      r.problems().expected(item->source(), r.key_path(key), "the name of a host with a link",
                            config::describe(*item));
      ok = false;
    } else if (!seen.insert(text->get()).second) {
      r.problems().expected(item->source(), r.key_path(key), "each host once",
                            config::describe(*item));
      ok = false;
    } else {
      out.push_back(text->get());
    }
  }
  return ok;
}

// `size_mtus`: [min, max] or one number of MTUs (frames).
bool read_size_mtus(TableReader& r, WorkloadSpec& spec) {
  const toml::node* node = r.node("size_mtus");
  if (!node) return true;
  constexpr int64_t kMaxMtus = 1'000'000;
  const std::string expected =
      fmt::format("a number of MTUs, or [min, max] with 1 <= min <= max <= {}", kMaxMtus);
  std::vector<int64_t> values;
  if (const auto* one = node->as_integer()) values = {one->get(), one->get()};
  if (const auto* list = node->as_array(); list && list->size() == 2)
    for (const toml::node& item : *list)
      if (const auto* i = item.as_integer()) values.push_back(i->get());
  if (values.size() != 2 || values[0] < 1 || values[1] < values[0] || values[1] > kMaxMtus) {
    r.problems().expected(node->source(), r.key_path("size_mtus"), expected,
                          config::describe(*node));
    return false;
  }
  spec.min_mtus = static_cast<uint32_t>(values[0]);
  spec.max_mtus = static_cast<uint32_t>(values[1]);
  return true;
}

// The names of the .cdf files a bare name may be (for the message when one is not there).
std::string bare_cdf_names(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".cdf") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

class WorkloadReader {
 public:
  WorkloadReader(TableReader& r, const HostInfo& hosts, const WorkloadFiles& files,
                 const TransportSettings& transport)
      : r_(r), hosts_(hosts), files_(files), transport_(transport) {}

  // False when the entry has a problem (each recorded).
  bool read(WorkloadSpec& spec) {
    bool ok = true;
    if (auto kind = r_.choice("kind", {"poisson", "incast", "burst", "closed-loop"})) {
      for (const KindKeys& k : kKinds)
        if (k.name == *kind) spec.kind = k.kind;
    } else {
      if (!r_.has("kind"))
        r_.problems().expected(r_.raw().source(), r_.key_path("kind"),
                               "one of \"poisson\" \"incast\" \"burst\" \"closed-loop\"",
                               "nothing");
      // Without a kind the other keys cannot be judged: say only what is missing.
      for (const auto& [key, node] : r_.raw()) r_.node(key.str());
      return false;
    }
    refuse_other_kinds(spec.kind, ok);
    ok &= read_common(spec);
    switch (spec.kind) {
      case WorkloadKind::kPoisson:
        ok &= read_poisson(spec);
        break;
      case WorkloadKind::kIncast:
        ok &= read_incast(spec);
        break;
      case WorkloadKind::kBurst:
        ok &= read_burst(spec);
        break;
      case WorkloadKind::kClosedLoop:
        ok &= read_sizes_to_other_racks(spec);
        break;
    }
    r_.reject_unknown_keys();
    return ok && known_keys_only();
  }

 private:
  bool read_common(WorkloadSpec& spec) {
    bool ok = true;
    if (auto d = read_flow_dscp(r_)) {
      spec.dscp = *d;
    } else if (r_.has("priority") || r_.has("dscp")) {
      ok = false;  // refused
    }
    if (auto f = got("frame", r_.bytes("frame", 60, 9600), ok))
      spec.frame_bytes = static_cast<uint32_t>(*f);
    if (auto t = got("transport", r_.choice("transport", kFlowTransportNames), ok)) {
      spec.transport = *transport_named(*t);
      if (auto problem = transport_problem(transport_, spec.transport, spec.frame_bytes)) {
        r_.refuse("transport", *problem);
        ok = false;
      }
    }
    if (auto s = got("start", r_.duration_ns("start", 0, kMaxWorkloadNs), ok)) spec.start_ns = *s;
    if (has_key(kind_keys(spec.kind).keys, "stop"))
      if (auto s = got("stop", r_.duration_ns("stop", 1, kMaxWorkloadNs), ok)) spec.stop_ns = *s;
    if (spec.stop_ns && *spec.stop_ns <= spec.start_ns) {
      r_.refuse("stop", fmt::format("a stop after start ({} ns)", spec.start_ns));
      ok = false;
    }
    if (auto s = got("seed", r_.integer("seed", 0, INT64_MAX), ok))
      spec.seed_offset = static_cast<uint64_t>(*s);
    hosts_ok_ = read_host_names(r_, "hosts", hosts_, spec.hosts);
    return ok && hosts_ok_;
  }

  // Keys of another kind are errors, not silently ignored (docs/architecture.md): each is refused
  // once, naming the first kind that has it.
  void refuse_other_kinds(WorkloadKind kind, bool& ok) {
    const KindKeys& own = kind_keys(kind);
    std::set<std::string_view> refused;
    for (const KindKeys& other : kKinds) {
      for (std::string_view key : other.keys) {
        if (other.kind == kind || has_key(own.keys, key) || !r_.has(key)) continue;
        if (!refused.insert(key).second) continue;
        r_.node(key);
        r_.refuse(key, fmt::format("no `{}` for kind \"{}\" (a key of kind \"{}\")", key, own.name,
                                   other.name));
        ok = false;
      }
    }
  }

  bool read_poisson(WorkloadSpec& spec) {
    bool ok = true;
    if (auto load = got("load", read_load(r_), ok)) spec.load = *load;
    if (!r_.has("load")) {
      r_.refuse("load", "a load in (0, 1] of each host's link", "nothing");
      ok = false;
    }
    return read_sizes_to_other_racks(spec) && ok;
  }

  // Poisson and closed loop: sizes from `cdf`, each flow to a host of another rack.
  bool read_sizes_to_other_racks(WorkloadSpec& spec) {
    bool ok = true;
    if (auto cdf = r_.string("cdf", true)) {
      ok &= load_cdf(*cdf, spec);
    } else {
      ok = false;
    }
    // GFC §6.2.3: every destination is in another rack, so the hosts must span two racks.
    std::set<int> racks;
    for (int h : workload_participants(spec, hosts_)) racks.insert(hosts_.hosts[h].rack);
    if (hosts_ok_ && racks.size() < 2) {
      r_.refuse("hosts", "hosts in at least two racks (each flow goes to another rack)",
                racks.empty() ? "no host" : "every host in one rack");
      ok = false;
    }
    return ok;
  }

  bool load_cdf(const std::string& value, WorkloadSpec& spec) {
    spec.cdf_file = resolve_cdf_path(value, files_);
    try {
      spec.sizes =
          std::make_shared<const workload::FlowSizeCdf>(workload::FlowSizeCdf::load(spec.cdf_file));
      return true;
    } catch (const workload::CdfError& error) {
      std::string why = error.what();
      if (error.line() == 0 && spec.cdf_file.rfind(files_.workloads_dir, 0) == 0)
        why += fmt::format("; bare names: {}", bare_cdf_names(files_.workloads_dir));
      r_.refuse("cdf", fmt::format("a flow-size CDF ({})", why));
      return false;
    }
  }

  bool read_incast(WorkloadSpec& spec) {
    bool ok = true;
    ok &= read_count("senders", spec.senders);
    // The size is workload::IncastParams::mtu_payload_bytes (32 bits) when fixed.
    if (auto s = got("size", r_.bytes("size", 1, UINT32_MAX), ok)) spec.size_bytes = *s;
    ok &= read_size_mtus(r_, spec);
    if (r_.has("size") && r_.has("size_mtus")) {
      r_.refuse("size_mtus", "either size or size_mtus, not both");
      ok = false;
    }
    if (auto p = got("period", r_.duration_ns("period", 1, kMaxWorkloadNs), ok))
      spec.period_ns = *p;
    if (auto load = got("load", read_load(r_), ok)) spec.load = *load;
    if (r_.has("period") && r_.has("load")) {
      r_.refuse("load", "either period or load, not both");
      ok = false;
    } else if (!r_.has("period") && !r_.has("load")) {
      r_.refuse("period", "a period (\"500us\") or a load in (0, 1] of the destination's link",
                "nothing");
      ok = false;
    }
    if (auto j = got("jitter", r_.duration_ns("jitter", 0, kMaxWorkloadNs), ok))
      spec.jitter_ns = *j;
    if (!read_host_names(r_, "to", hosts_, spec.to)) return false;
    if (!ok || !hosts_ok_) return false;
    // Pyrrha §6: senders come from outside the destination's rack, so each destination needs
    // a taking-part host elsewhere.
    const std::vector<int> taking_part = workload_participants(spec, hosts_);
    std::vector<int> destinations;
    for (const std::string& name : spec.to) destinations.push_back(hosts_.find(name));
    if (spec.to.empty()) destinations = taking_part;
    for (int d : destinations) {
      const bool listed = std::find(taking_part.begin(), taking_part.end(), d) != taking_part.end();
      if (!listed) {
        r_.refuse("to", "destinations among the hosts of `hosts`",
                  fmt::format("\"{}\", not one of them", hosts_.hosts[d].name));
        return false;
      }
      const bool other_rack = std::any_of(taking_part.begin(), taking_part.end(), [&](int h) {
        return hosts_.hosts[h].rack != hosts_.hosts[d].rack;
      });
      if (!other_rack) {
        r_.refuse(spec.to.empty() ? "hosts" : "to",
                  "a host of `hosts` outside each destination's rack (the senders)",
                  fmt::format("none for \"{}\"", hosts_.hosts[d].name));
        return false;
      }
    }
    return true;
  }

  // Pyrrha Fig. 7's stress test: senders are the hosts of `hosts` not in `to`, each sending to
  // hosts of `to` outside its own rack.
  bool read_burst(WorkloadSpec& spec) {
    bool ok = true;
    ok &= read_count("flows", spec.flows_per_host);
    if (auto s = got("size", r_.bytes("size", 1, UINT32_MAX), ok)) spec.size_bytes = *s;
    if (!r_.has("size")) {
      r_.refuse("size", "each flow's size (\"24KB\")", "nothing");
      ok = false;
    }
    if (!r_.has("to")) {
      r_.refuse("to", "the destinations: a host or a list of hosts", "nothing");
      return false;
    }
    if (!read_host_names(r_, "to", hosts_, spec.to) || !ok || !hosts_ok_) return false;
    const std::vector<int> senders = burst_senders(spec, hosts_);
    if (senders.empty()) {
      r_.refuse("hosts", "a host of `hosts` that is not one of `to` (the senders)", "none");
      return false;
    }
    const uint64_t total = senders.size() * static_cast<uint64_t>(spec.flows_per_host);
    if (total > kMaxBurstFlows) {
      r_.refuse("flows", fmt::format("at most {} flows in all", kMaxBurstFlows),
                fmt::format("{} ({} senders × {})", total, senders.size(), spec.flows_per_host));
      return false;
    }
    for (int s : senders) {
      const bool reaches = std::any_of(spec.to.begin(), spec.to.end(), [&](const std::string& d) {
        return hosts_.hosts[hosts_.find(d)].rack != hosts_.hosts[s].rack;
      });
      if (!reaches) {
        r_.refuse("to", "a host outside each sender's rack",
                  fmt::format("none for \"{}\"", hosts_.hosts[s].name));
        return false;
      }
    }
    return true;
  }

  // A required count in [1, 10^6] (senders of an incast, flows of a burst's host).
  bool read_count(std::string_view key, int& out) {
    const auto n = r_.integer(key, 1, 1'000'000, true);
    if (n) out = static_cast<int>(*n);
    return n.has_value();
  }

  // `value` as read; a key present but not read (a problem was recorded) clears `ok`.
  template <typename T>
  std::optional<T> got(std::string_view key, std::optional<T> value, bool& ok) const {
    if (!value && r_.has(key)) ok = false;
    return value;
  }

  // The entry's keys are all known ones (reject_unknown_keys recorded the others).
  bool known_keys_only() const {
    static constexpr std::string_view kKnown[] = {
        "kind", "priority", "dscp", "frame",     "start",  "stop",   "seed", "hosts",     "cdf",
        "load", "senders",  "size", "size_mtus", "period", "jitter", "to",   "transport", "flows"};
    for (const auto& [key, node] : r_.raw())
      if (std::find(std::begin(kKnown), std::end(kKnown), key.str()) == std::end(kKnown))
        return false;
    return true;
  }

  TableReader& r_;
  const HostInfo& hosts_;
  const WorkloadFiles& files_;
  const TransportSettings& transport_;
  bool hosts_ok_ = true;  // `hosts` named only hosts, each once
};

}  // namespace

std::vector<int> workload_participants(const WorkloadSpec& spec, const HostInfo& hosts) {
  std::vector<int> out;
  if (spec.hosts.empty()) {
    for (size_t h = 0; h < hosts.hosts.size(); ++h) out.push_back(static_cast<int>(h));
    return out;
  }
  for (const std::string& name : spec.hosts) {
    const int h = hosts.find(name);
    if (h < 0) throw std::invalid_argument("workload: no host named " + name);
    out.push_back(h);
  }
  return out;
}

std::vector<int> burst_senders(const WorkloadSpec& spec, const HostInfo& hosts) {
  std::vector<int> out;
  for (int h : workload_participants(spec, hosts))
    if (std::find(spec.to.begin(), spec.to.end(), hosts.hosts[h].name) == spec.to.end())
      out.push_back(h);
  return out;
}

std::string resolve_cdf_path(const std::string& value, const WorkloadFiles& files) {
  const std::filesystem::path path(value);
  // A bare name: no folder and no extension ("web-search").
  if (!path.has_parent_path() && !path.has_extension())
    return (std::filesystem::path(files.workloads_dir) / (value + ".cdf")).string();
  if (path.is_relative()) return (std::filesystem::path(files.scenario_dir) / path).string();
  return value;
}

std::vector<WorkloadSpec> read_workloads(config::TableReader& root, const HostInfo& hosts,
                                         const WorkloadFiles& files,
                                         const TransportSettings& transport) {
  std::vector<WorkloadSpec> out;
  root.each_table("workloads", [&](TableReader& r, size_t i) {
    const toml::source_region& at = r.raw().source();
    WorkloadSpec spec;
    spec.where =
        fmt::format("{}:{}:{}: {}", at.path ? *at.path : root.problems().file(), at.begin.line,
                    at.begin.column, root.key_path(fmt::format("workloads[{}]", i)));
    if (WorkloadReader(r, hosts, files, transport).read(spec)) out.push_back(std::move(spec));
  });
  return out;
}

}  // namespace fcswitch::lab

#include "metrics/telemetry_commands.h"

#include <rte_telemetry.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "node/flow_control_counters.h"

namespace fcswitch::metrics {

namespace {

struct Registered {
  std::string name;
  const SwitchNode* node;
  OccupancyTrace* trace;
};

struct SwitchTable {
  std::mutex lock;
  std::vector<Registered> switches;
};

SwitchTable& table() {
  static SwitchTable instance;
  return instance;
}

std::vector<std::string> split(const char* params) {
  std::vector<std::string> out;
  if (!params || !*params) return out;
  std::string_view rest(params);
  for (;;) {
    const size_t comma = rest.find(',');
    out.emplace_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

// The switch the parameters name (and drops that name), or the only one. Table locked.
const Registered* pick(std::vector<std::string>& params) {
  auto& all = table().switches;
  if (!params.empty())
    for (const Registered& r : all)
      if (r.name == params.front()) {
        params.erase(params.begin());
        return &r;
      }
  return all.size() == 1 ? &all.front() : nullptr;
}

// Table locked. For the per-port commands: the switch and the port the parameters name
// (both dropped from `params`), with the reply's dict started and naming them; null if either
// is unknown.
const Registered* start_port_reply(std::vector<std::string>& params, rte_tel_data* d, int& port) {
  const Registered* r = pick(params);
  if (!r || params.empty()) return nullptr;
  port = r->node->config().port_index(params.front());
  if (port < 0) return nullptr;
  params.erase(params.begin());
  rte_tel_data_start_dict(d);
  rte_tel_data_add_dict_string(d, "node", r->name.c_str());
  rte_tel_data_add_dict_string(d, "port", r->node->config().ports[port].name.c_str());
  return r;
}

std::optional<int> number(const std::string& s, int limit) {
  int v = 0;
  auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (error != std::errc() || end != s.data() + s.size() || v < 0 || v >= limit) return {};
  return v;
}

// A column of the dict: one value per index.
template <typename Value>
void add_column(rte_tel_data* d, const char* name, int count, Value value) {
  rte_tel_data* column = rte_tel_data_alloc();
  if (!column) return;
  rte_tel_data_start_array(column, RTE_TEL_U64_VAL);
  for (int i = 0; i < count; ++i) rte_tel_data_add_array_u64(column, value(i));
  rte_tel_data_add_dict_container(d, name, column, 0);
}

void add_names(rte_tel_data* d, const char* name, const std::vector<std::string>& names) {
  rte_tel_data* column = rte_tel_data_alloc();
  if (!column) return;
  rte_tel_data_start_array(column, RTE_TEL_STRING_VAL);
  for (const std::string& n : names) rte_tel_data_add_array_string(column, n.c_str());
  rte_tel_data_add_dict_container(d, name, column, 0);
}

int cmd_switches(const char*, const char*, rte_tel_data* d) {
  std::lock_guard guard(table().lock);
  rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
  for (const Registered& r : table().switches) rte_tel_data_add_array_string(d, r.name.c_str());
  return 0;
}

int cmd_ports(const char*, const char* params, rte_tel_data* d) {
  std::lock_guard guard(table().lock);
  std::vector<std::string> args = split(params);
  const Registered* r = pick(args);
  if (!r) return -EINVAL;
  const SwitchNode& node = *r->node;
  const int ports = node.ports();
  rte_tel_data_start_dict(d);
  rte_tel_data_add_dict_string(d, "node", r->name.c_str());
  std::vector<std::string> names;
  for (const auto& port : node.config().ports) names.push_back(port.name);
  add_names(d, "port", names);
  add_column(d, "rx_packets", ports, [&](int p) { return node.rx_packets(p); });
  add_column(d, "rx_bytes", ports, [&](int p) { return node.rx(p).bytes(); });
  add_column(d, "control_frames_received", ports, [&](int p) { return node.rx_control_frames(p); });
  auto tx_sum = [&](int p, bool bytes) {
    uint64_t sum = 0;
    for (int q = 0; q < kNumEgressQueues; ++q)
      sum += bytes ? node.tx_bytes(p, q) : node.tx_packets(p, q);
    return sum;
  };
  add_column(d, "tx_packets", ports, [&](int p) { return tx_sum(p, false); });
  add_column(d, "tx_bytes", ports, [&](int p) { return tx_sum(p, true); });
  add_column(d, "drops", ports, [&](int p) {
    uint64_t sum = 0;
    for (const DropReasonInfo& r : kDropReasons) sum += node.drops(p, r.reason);
    return sum;
  });
  add_column(d, "nic_rx_missed", ports, [&](int p) { return node.nic_rx_dropped(p); });
  rte_tel_data_add_dict_u64(d, "mempool_in_use", node.mempool_in_use());
  return 0;
}

int cmd_queues(const char*, const char* params, rte_tel_data* d) {
  std::lock_guard guard(table().lock);
  std::vector<std::string> args = split(params);
  int port = -1;
  const Registered* r = start_port_reply(args, d, port);
  if (!r) return -EINVAL;
  const SwitchNode& node = *r->node;
  add_column(d, "prio", kNumPriorities, [](int prio) { return static_cast<uint64_t>(prio); });
  add_column(d, "ingress_bytes", kNumPriorities,
             [&](int prio) { return node.ingress_occupancy_bytes(port, prio); });
  add_column(d, "ingress_max_bytes", kNumPriorities,
             [&](int prio) { return node.max_ingress_occupancy_bytes(port, prio); });
  add_column(d, "admitted_packets", kNumPriorities,
             [&](int prio) { return node.admitted_packets(port, prio); });
  add_column(d, "egress_bytes", kNumPriorities,
             [&](int prio) { return node.egress_depth_bytes(port, prio); });
  add_column(d, "tx_packets", kNumPriorities,
             [&](int prio) { return node.tx_packets(port, prio); });
  add_column(d, "tx_bytes", kNumPriorities, [&](int prio) { return node.tx_bytes(port, prio); });
  rte_tel_data_add_dict_u64(d, "lossy_egress_bytes", node.egress_depth_bytes(port, kLossyQueue));
  rte_tel_data_add_dict_u64(d, "lossy_tx_packets", node.tx_packets(port, kLossyQueue));
  return 0;
}

int cmd_fc(const char*, const char* params, rte_tel_data* d) {
  std::lock_guard guard(table().lock);
  std::vector<std::string> args = split(params);
  int port = -1;
  const Registered* r = start_port_reply(args, d, port);
  if (!r) return -EINVAL;
  const SwitchNode& node = *r->node;
  const TxTask& tx = node.tx(port);
  if (!args.empty()) {  // one priority, with its engine's own counters
    const auto prio = number(args.front(), kNumPriorities);
    if (!prio || !tx.has_engine(*prio)) return -EINVAL;
    rte_tel_data_add_dict_u64(d, "prio", static_cast<uint64_t>(*prio));
    rte_tel_data_add_dict_string(d, "engine", std::string(node.engine_name(port, *prio)).c_str());
    auto add = [&](const fc::CounterDescriptor& counter, uint64_t value) {
      rte_tel_data_add_dict_u64(d, std::string(counter.name).c_str(), value);
    };
    tx_flow_control_counters(tx, *prio, add);
    rte_tel_data_add_dict_u64(d, "level", tx.feedback_level(*prio));
    tx.engine_counters(*prio, add);
    return 0;
  }
  std::vector<int> prios;
  std::vector<std::string> engines;
  for (int prio = 0; prio < kNumPriorities; ++prio)
    if (tx.has_engine(prio)) {
      prios.push_back(prio);
      engines.emplace_back(node.engine_name(port, prio));
    }
  const int n = static_cast<int>(prios.size());
  add_column(d, "prio", n, [&](int i) { return static_cast<uint64_t>(prios[i]); });
  add_names(d, "engine", engines);
  // TX's counters, a column each (the engines' differ by priority: one priority at a time).
  std::array<std::vector<uint64_t>, kTxFlowControlCounters.size()> columns;
  for (int prio : prios) {
    size_t column = 0;
    tx_flow_control_counters(tx, prio, [&](const fc::CounterDescriptor&, uint64_t value) {
      columns[column++].push_back(value);
    });
  }
  for (size_t c = 0; c < columns.size(); ++c)
    add_column(d, std::string(kTxFlowControlCounters[c].name).c_str(), n,
               [&](int i) { return columns[c][i]; });
  add_column(d, "level", n, [&](int i) { return tx.feedback_level(prios[i]); });
  return 0;
}

int cmd_trace(const char*, const char* params, rte_tel_data* d) {
  std::lock_guard guard(table().lock);
  std::vector<std::string> args = split(params);
  const Registered* r = pick(args);
  if (!r || !r->trace) return -EINVAL;  // no [trace] in this switch's config
  if (!args.empty()) {
    if (args.front() == "start")
      r->trace->set_recording(true);
    else if (args.front() == "stop")
      r->trace->set_recording(false);
    else
      return -EINVAL;
  }
  rte_tel_data_start_dict(d);
  rte_tel_data_add_dict_string(d, "node", r->name.c_str());
  rte_tel_data_add_dict_u64(d, "recording", r->trace->recording() ? 1 : 0);
  rte_tel_data_add_dict_u64(d, "samples", r->trace->samples());
  rte_tel_data_add_dict_u64(d, "samples_lost", r->trace->samples_lost());
  rte_tel_data_add_dict_string(d, "file", r->trace->file().c_str());
  return 0;
}

void register_commands() {
  static std::once_flag once;
  std::call_once(once, [] {
    rte_telemetry_register_cmd("/fcswitch/switches", cmd_switches,
                               "Names of the switches in this process. No parameters");
    rte_telemetry_register_cmd("/fcswitch/ports", cmd_ports,
                               "Per-port counters. Parameters: [node]");
    rte_telemetry_register_cmd("/fcswitch/queues", cmd_queues,
                               "Per-priority queues of a port. Parameters: [node,]port");
    rte_telemetry_register_cmd("/fcswitch/fc", cmd_fc,
                               "Flow control of a port. Parameters: [node,]port[,prio]");
    rte_telemetry_register_cmd("/fcswitch/trace", cmd_trace,
                               "Occupancy trace state. Parameters: [node][,start|stop]");
  });
}

}  // namespace

TelemetryRegistration::TelemetryRegistration(std::string node, const SwitchNode& node_ref,
                                             OccupancyTrace* trace)
    : node_(&node_ref) {
  register_commands();
  std::lock_guard guard(table().lock);
  table().switches.push_back({std::move(node), node_, trace});
}

TelemetryRegistration::~TelemetryRegistration() {
  std::lock_guard guard(table().lock);
  auto& all = table().switches;
  all.erase(
      std::remove_if(all.begin(), all.end(), [&](const Registered& r) { return r.node == node_; }),
      all.end());
}

}  // namespace fcswitch::metrics

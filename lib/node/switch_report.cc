#include "node/switch_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "node/ecn_port_counters.h"
#include "node/flow_control_counters.h"
#include "node/pabo_port_counters.h"
#include "node/pyrrha_switch_counters.h"

namespace fcswitch {

namespace {

constexpr size_t kTextWidth = 100;  // where the text report wraps a long list of counters

std::string queue_name(int queue) {
  return queue == kLossyQueue ? "lossy" : std::to_string(queue);
}

// The flow-control counters of one (port, priority): TX's own, τ, then its engine's.
std::vector<std::pair<std::string, uint64_t>> flow_control_counters(const SwitchNode& node,
                                                                    int port, int prio) {
  const TxTask& tx = node.tx(port);
  std::vector<std::pair<std::string, uint64_t>> counters;
  auto add = [&](const fc::CounterDescriptor& counter, uint64_t value) {
    counters.emplace_back(std::string(counter.name), value);
  };
  tx_flow_control_counters(tx, prio, add);
  if (const fc::ResponseTimeMeter* tau = tx.response_time(prio)) {
    counters.emplace_back("pause_response_samples", tau->samples());
    counters.emplace_back("pause_response_p50_ns", tau->quantile_ns(0.5));
    counters.emplace_back("pause_response_p99_ns", tau->quantile_ns(0.99));
    counters.emplace_back("pause_response_max_ns", tau->max_ns());
  }
  tx.engine_counters(prio, add);
  return counters;
}

// {"3": {name: value, …}, …}: what `report` gives for each queue of `port` in `queues`.
template <typename Report>
nlohmann::ordered_json counters_by_queue(const SwitchNode& node, int port, PriorityMask queues,
                                         Report report) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (int queue = 0; queue < kNumPriorities; ++queue) {
    if (!has_priority(queues, queue)) continue;
    nlohmann::ordered_json counters = nlohmann::ordered_json::object();
    report(node, port, queue, [&](const fc::CounterDescriptor& c, uint64_t value) {
      counters[std::string(c.name)] = value;
    });
    out[std::to_string(queue)] = counters;
  }
  return out;
}

// Cycles a packet of a task's busy polls, or -1 when it moved none (or does not count them).
double cycles_per_packet(const Task& task) {
  const uint64_t packets = task.packets_moved();
  return packets ? static_cast<double>(task.busy_ticks()) / static_cast<double>(packets) : -1;
}

// Where each worker lcore's time went (the text report's last lines): per task, the share of
// the run its busy polls took and their cycles a packet, VPP's `show runtime` for fcswitch.
std::string task_lines(const SwitchNode& node, double run_seconds) {
  const double run_ticks = run_seconds * static_cast<double>(node.ticks().hz);
  if (run_ticks <= 0) return "";
  std::string out = "lcores (busy: polls that found work, in TSC cycles):\n";
  const std::vector<std::vector<Task*>> lcores = node.lcore_tasks();
  for (size_t l = 0; l < lcores.size(); ++l)
    for (const Task* task : lcores[l]) {
      const double per_packet = cycles_per_packet(*task);
      out += fmt::format("  lcore {} {:<14} busy {:5.1f} % of the run, {} polls, {}", l,
                         task->name(), 100.0 * static_cast<double>(task->busy_ticks()) / run_ticks,
                         task->busy_polls(),
                         per_packet < 0 ? std::string("no packets")
                                        : fmt::format("{:.0f} cycles a packet", per_packet));
      // The longest wait between two polls: a thread that lost its CPU (Task::note_poll_gap).
      if (const uint64_t gap = task->longest_poll_gap_ticks())
        out += fmt::format(
            "; polled at most {} µs apart, {} times later than response_time ({} µs in all)",
            node.ticks().to_ns(gap) / 1000, task->late_polls(),
            node.ticks().to_ns(task->late_poll_gap_ticks()) / 1000);
      out += "\n";
    }
  return out;
}

}  // namespace

std::string drop_summary(const SwitchNode& node) {
  std::string line;
  for (const DropReasonInfo& r : kDropReasons) {
    uint64_t sum = 0;
    for (int p = 0; p < node.ports(); ++p) sum += node.drops(p, r.reason);
    if (sum) line += fmt::format("{}{}={}", line.empty() ? "" : " ", r.name, sum);
  }
  return line;
}

std::string report_text(const SwitchNode& node, const ShutdownCheck& check) {
  std::string out = fmt::format("switch {}\n", node.config().name);
  for (int p = 0; p < node.ports(); ++p) {
    const uint64_t downs =
        static_cast<size_t>(p) < check.link_downs.size() ? check.link_downs[p] : 0;
    out += fmt::format(
        "port {}: rx {} packets ({} control frames consumed), nic dropped {}{}\n",
        node.config().ports[p].name, node.rx_packets(p), node.rx_control_frames(p),
        node.nic_rx_dropped(p),
        downs ? fmt::format(", link went down {} time{}", downs, downs == 1 ? "" : "s") : "");
    out += "  prio/queue   admitted in    sent out  sent out bytes\n";
    for (int q = 0; q < kNumEgressQueues; ++q) {
      const uint64_t in = q < kNumPriorities ? node.admitted_packets(p, q) : 0;
      if (!in && !node.tx_packets(p, q)) continue;
      out += fmt::format("  {:>10} {:>13} {:>11} {:>15}\n", queue_name(q), in,
                         node.tx_packets(p, q), node.tx_bytes(p, q));
    }
    for (const DropReasonInfo& r : kDropReasons)
      if (uint64_t n = node.drops(p, r.reason)) out += fmt::format("  drop {}: {}\n", r.name, n);
    for (int s = 1; s < static_cast<int>(wire::ControlDecodeStatus::kCount); ++s)
      if (uint64_t n = node.rx(p).decode_errors(static_cast<wire::ControlDecodeStatus>(s)))
        out +=
            fmt::format("  control frame refused, {}: {}\n", wire::kControlDecodeStatusNames[s], n);
    const TxTask& tx = node.tx(p);
    if (const uint64_t frames = tx.residence().samples())
      out += fmt::format(
          "  time inside the switch (RX poll to TX burst): p50 {} ns, p99 {} ns, "
          "max {} ns over {} frames\n",
          tx.residence_ns(0.5), tx.residence_ns(0.99), tx.residence_max_ns(), frames);
    if (tx.short_frames_padded() || tx.short_frames_unpadded())
      out += fmt::format("  frames under 60 bytes: {} padded on transmit, {} left unpadded\n",
                         tx.short_frames_padded(), tx.short_frames_unpadded());
    if (tx.pfc_frames_sent() || tx.credit_frames_sent() || tx.messages_without_gate() ||
        tx.control_alloc_failures())
      out += fmt::format(
          "  feedback sent: {} PFC frames, {} credit frames; messages for priorities without "
          "an engine: {}; control mbuf shortages: {}\n",
          tx.pfc_frames_sent(), tx.credit_frames_sent(), tx.messages_without_gate(),
          tx.control_alloc_failures());
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      if (!node.tx(p).has_engine(prio)) continue;
      out += fmt::format("  flow control, priority {} ({}):", prio, node.engine_name(p, prio));
      for (const auto& [name, value] : flow_control_counters(node, p, prio))
        out += fmt::format(" {}={}", name, value);
      out += "\n";
    }
    const ResponseTimeBudget& budget = node.response_time_budget();
    if (const uint64_t seconds = budget.seconds_over(p))
      out +=
          fmt::format("  τ over response_time ({} µs) in {} second{}, at worst {} µs: {}\n",
                      node.config().ports[p].flow_control.response_time_ns / 1000, seconds,
                      seconds == 1 ? "" : "s", budget.worst_ns(p) / 1000, budget.worst_breaks(p));
    for (int queue = 0; queue < kNumPriorities; ++queue) {
      if (!has_priority(node.ecn_queues(p), queue)) continue;
      out += fmt::format("  ecn, queue {}:", queue);
      ecn_port_counters(node, p, queue, [&](const fc::CounterDescriptor& c, uint64_t value) {
        out += fmt::format(" {}={}", c.name, value);
      });
      out += "\n";
    }
  }
  // Each flooded copy is admitted as a packet of its own.
  out += fmt::format(
      "flood copies: {} (admitted = data frames received + flood copies − FWD's "
      "drops)\n",
      node.fwd().flood_copies());
  if (const TaggerStage* tagger = node.fwd().tagger()) {
    out += fmt::format("tagger: {} rewrites, {} demoted to the lossy tag, {} arrived lossy\n",
                       tagger->rewrites(), tagger->demoted(), tagger->lossy_in());
    out += "  rule hits:";
    for (int r = 0; r < tagger->rules(); ++r) out += fmt::format(" {}", tagger->rule_hits(r));
    out += "\n";
  }
  if (const auto& pyrrha = node.config().pyrrha) {
    // The report is made with the lcores stopped: every row, the bytes held too (none once
    // the switch has flushed its queues: fcswitch reports after its drain and flush).
    const std::string title =
        fmt::format("pyrrha, priority {}, switch id {}:", pyrrha->priority, pyrrha->switch_id);
    out += title;
    size_t width = title.size();  // of the line so far
    pyrrha_switch_counters(node, PyrrhaReader::kLive,
                           [&](const PyrrhaSwitchCounter& row, uint64_t value) {
                             const std::string item = fmt::format("{}={}", row.counter.name, value);
                             if (width + item.size() + 1 > kTextWidth) {
                               out += "\n ";
                               width = 1;
                             }
                             out += ' ';
                             out += item;
                             width += item.size() + 1;
                           });
    out += '\n';
  }
  out += fmt::format("mempool: {} of {} mbufs in use after shutdown{}\n", check.mempool_in_use,
                     check.mempool_size, check.mempool_in_use ? " — LEAK" : "");
  if (!check.drained) out += "drain deadline passed: queued packets were flushed\n";
  out += task_lines(node, check.run_seconds);
  if (check.stalled_at_stop_ns) {
    out += fmt::format("stalled at the stop: nothing moved for {:.1f} s with packets held",
                       static_cast<double>(check.stalled_at_stop_ns) / 1e9);
    if (!check.blocked_at_stop.empty()) out += "; at a closed gate:";
    for (const BlockedQueue& q : check.blocked_at_stop)
      out += fmt::format(" {} prio {} ({})", node.config().ports[q.port].name, q.priority,
                         node.engine_name(q.port, q.priority));
    out += "\n";
  }
  return out;
}

std::string report_json(const SwitchNode& node, const ShutdownCheck& check) {
  // A JSON library writes it: names and engine strings are escaped whatever they hold.
  using Json = nlohmann::ordered_json;
  Json ports = Json::array();
  for (int p = 0; p < node.ports(); ++p) {
    Json port = {{"name", node.config().ports[p].name},
                 {"rx_packets", node.rx_packets(p)},
                 {"control_frames", node.rx_control_frames(p)},
                 {"nic_rx_dropped", node.nic_rx_dropped(p)}};
    if (static_cast<size_t>(p) < check.link_downs.size())
      port["link_downs"] = check.link_downs[static_cast<size_t>(p)];
    Json admitted = Json::array(), occupancy = Json::array(), sent = Json::array();
    for (int q = 0; q < kNumPriorities; ++q) {
      admitted.push_back(node.admitted_packets(p, q));
      occupancy.push_back(node.ingress_occupancy_bytes(p, q));
    }
    for (int q = 0; q < kNumEgressQueues; ++q) sent.push_back(node.tx_packets(p, q));
    port["admitted_packets"] = admitted;
    port["ingress_occupancy_bytes"] = occupancy;
    port["tx_packets"] = sent;
    Json drops = Json::object();
    for (const DropReasonInfo& r : kDropReasons)
      drops[std::string(r.name)] = node.drops(p, r.reason);
    port["drops"] = drops;
    // control_invalid, by why (wire/control_decode_status.h).
    Json refused = Json::object();
    for (int s = 1; s < static_cast<int>(wire::ControlDecodeStatus::kCount); ++s)
      refused[std::string(wire::kControlDecodeStatusNames[s])] =
          node.rx(p).decode_errors(static_cast<wire::ControlDecodeStatus>(s));
    port["control_decode_errors"] = refused;
    const TxTask& tx = node.tx(p);
    port["pfc_frames_sent"] = tx.pfc_frames_sent();
    port["credit_frames_sent"] = tx.credit_frames_sent();
    port["messages_without_engine"] = tx.messages_without_gate();
    port["control_mbuf_shortages"] = tx.control_alloc_failures();
    const ResponseTimeBudget& budget = node.response_time_budget();
    port["response_time"] = {{"budget_ns", node.config().ports[p].flow_control.response_time_ns},
                             {"over_budget_s", budget.seconds_over(p)},
                             {"worst_ns", budget.worst_ns(p)},
                             {"breaks", budget.worst_breaks(p)}};
    port["short_frames_padded"] = tx.short_frames_padded();
    port["short_frames_unpadded"] = tx.short_frames_unpadded();
    port["residence_ns"] = {{"samples", tx.residence().samples()},
                            {"p50", tx.residence_ns(0.5)},
                            {"p99", tx.residence_ns(0.99)},
                            {"max", tx.residence_max_ns()}};
    Json flow_control = Json::object();
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      if (!tx.has_engine(prio)) continue;
      Json engine = {{"engine", std::string(node.engine_name(p, prio))}};
      for (const auto& [name, value] : flow_control_counters(node, p, prio)) engine[name] = value;
      flow_control[std::to_string(prio)] = engine;
    }
    port["flow_control"] = flow_control;
    if (node.pabo_priorities())
      port["pabo"] = counters_by_queue(node, p, node.pabo_priorities(), pabo_port_counters);
    if (node.ecn_queues(p))
      port["ecn"] = counters_by_queue(node, p, node.ecn_queues(p), ecn_port_counters);
    ports.push_back(std::move(port));
  }
  Json out = {{"switch", node.config().name},
              {"ports", ports},
              {"flood_copies", node.fwd().flood_copies()}};
  if (const TaggerStage* tagger = node.fwd().tagger()) {
    Json hits = Json::array();
    for (int r = 0; r < tagger->rules(); ++r) hits.push_back(tagger->rule_hits(r));
    out["tagger"] = {{"rewrites", tagger->rewrites()},
                     {"demoted", tagger->demoted()},
                     {"lossy_in", tagger->lossy_in()},
                     {"rule_hits", hits}};
  }
  if (const auto& settings = node.config().pyrrha) {
    Json pyrrha = {{"priority", settings->priority}, {"switch_id", settings->switch_id}};
    pyrrha_switch_counters(node, PyrrhaReader::kLive,
                           [&](const PyrrhaSwitchCounter& row, uint64_t value) {
                             put_pyrrha_row(pyrrha, row, value);
                           });
    out["pyrrha"] = pyrrha;
  }
  out["run_seconds"] = check.run_seconds;
  out["tsc_hz"] = node.ticks().hz;
  Json tasks = Json::array();
  const std::vector<std::vector<Task*>> lcores = node.lcore_tasks();
  for (size_t l = 0; l < lcores.size(); ++l)
    for (const Task* task : lcores[l])
      tasks.push_back({{"name", task->name()},
                       {"lcore", l},
                       {"polls", task->polls()},
                       {"busy_polls", task->busy_polls()},
                       {"busy_cycles", task->busy_ticks()},
                       {"packets", task->packets_moved()},
                       {"longest_poll_gap_ns", node.ticks().to_ns(task->longest_poll_gap_ticks())},
                       {"late_polls", task->late_polls()},
                       {"late_poll_gaps_ns", node.ticks().to_ns(task->late_poll_gap_ticks())}});
  out["tasks"] = tasks;
  out["mempool_size"] = check.mempool_size;
  out["mempool_in_use"] = check.mempool_in_use;
  out["drained"] = check.drained;
  // The switch's share of a deadlock's evidence (node/stall_watch.h).
  Json blocked = Json::array();
  for (const BlockedQueue& q : check.blocked_at_stop)
    blocked.push_back({{"port", node.config().ports[q.port].name}, {"prio", q.priority}});
  out["stall"] = {{"at_stop_s", static_cast<double>(check.stalled_at_stop_ns) / 1e9},
                  {"longest_s", static_cast<double>(check.longest_stall_ns) / 1e9},
                  {"blocked_at_stop", blocked}};
  return out.dump() + "\n";
}

}  // namespace fcswitch

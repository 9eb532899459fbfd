#include "results/lab_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "results/feedback_share.h"
#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

namespace {

nlohmann::ordered_json counts(const NamedCounts& named) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [name, value] : named) out[name] = value;
  return out;
}

nlohmann::ordered_json seconds_or_null(std::optional<double> seconds) {
  return seconds ? nlohmann::ordered_json(*seconds) : nlohmann::ordered_json();
}

std::optional<double> ns_to_s(bool known, uint64_t ns) {
  return known ? std::optional<double>(static_cast<double>(ns) / 1e9) : std::nullopt;
}

std::string gbps(double bps) {
  return fmt::format("{:.2f}", bps / 1e9);
}
std::string kb(double bytes) {
  return fmt::format("{:.0f}", bytes / 1000);
}

// Queues that saw traffic: the ones an occupancy figure is about.
std::vector<const QueueResult*> loaded_queues(const LabResult& r) {
  std::vector<const QueueResult*> out;
  for (const QueueResult& q : r.queues)
    if (q.max_ingress_bytes > 0) out.push_back(&q);
  return out;
}

// A run with more flows or loaded queues than this (a fat-tree's workload: thousands) lists
// a summary and the fullest queues on the terminal; summary.json and the CSV files have all.
constexpr size_t kListedLines = 24;
// The verdict table's rate column: each flow's rate up to this many flows.
constexpr size_t kTabledFlowRates = 6;

std::string flow_line(const FlowResult& f) {
  return fmt::format("  {:>3} {}→{} prio {}: {} Gb/s, {} of {} packets received, {} lost{}\n", f.id,
                     f.from, f.to, f.priority, gbps(f.tail_throughput_bps), f.received_packets,
                     f.sent_packets, f.missing,
                     f.fct_s ? fmt::format(", FCT {:.3f} ms", *f.fct_s * 1e3) : "");
}

std::string queue_line(const QueueResult& q) {
  return fmt::format(
      "  {}:{}:prio{}  max {}  steady {}  final {}  input {} Gb/s{}\n", q.node, q.port, q.priority,
      kb(static_cast<double>(q.max_ingress_bytes)), kb(q.steady_ingress_bytes),
      kb(static_cast<double>(q.final_ingress_bytes)), gbps(q.tail_input_bps),
      q.pause_response_samples ? fmt::format("  τ after XOFF p50 {:.1f} p99 {:.1f} µs ({} pauses)",
                                             static_cast<double>(q.pause_response_p50_ns) / 1e3,
                                             static_cast<double>(q.pause_response_p99_ns) / 1e3,
                                             q.pause_response_samples)
                               : "");
}

// Many flows: how many, how many of the sized ones came whole, what they received together.
std::string flows_in_brief(const LabResult& r) {
  uint64_t sent = 0, received = 0, lost = 0, sized = 0, whole = 0;
  double tail_bps = 0;
  for (const FlowResult& f : r.flows) {
    sent += f.sent_packets;
    received += f.received_packets;
    lost += f.missing;
    tail_bps += f.tail_throughput_bps;
  }
  if (r.fct) {
    sized = r.fct->flows.size();
    whole = r.fct->all.completed.count;
  }
  return fmt::format(
      "flows: {} ({} sized, {} of them received whole); {} of {} packets received, {} lost; "
      "{} Gb/s received together over the last 20 % (every flow: summary.json, flows_fct.csv)\n",
      r.flows.size(), sized, whole, received, sent, lost, gbps(tail_bps));
}

std::string fct_line(const std::string& label, const FctBucket& b) {
  const workload::SizeBucketStats& c = b.completed;
  std::string line = fmt::format("  {:<12} {:>6}", label, c.count);
  if (c.count)
    line += fmt::format("  FCT mean {:.3f} p99 {:.3f} ms  slowdown mean {:.2f} p99 {:.2f}",
                        c.mean_fct_ns / 1e6, c.p99_fct_ns / 1e6, c.mean_slowdown, c.p99_slowdown);
  if (b.incomplete) line += fmt::format("  ({} not received whole)", b.incomplete);
  return line + "\n";
}

std::string size_label(uint64_t lower, uint64_t upper) {
  const auto size = [](uint64_t bytes) {
    if (bytes % 1'000'000 == 0) return fmt::format("{} MB", bytes / 1'000'000);
    if (bytes % 1'000 == 0) return fmt::format("{} KB", bytes / 1'000);
    return fmt::format("{} B", bytes);
  };
  if (lower == 0) return "< " + size(upper);
  if (upper == UINT64_MAX) return "≥ " + size(lower);
  return size(lower) + "–" + size(upper);
}

// The sized flows' FCT and slowdown by size (Pyrrha Figs. 11–13, GFC Fig. 17).
std::string fct_table(const FctReport& fct) {
  std::string s = "completed flows by size (count, FCT, slowdown = FCT / ideal):\n";
  for (const FctBucket& b : fct.buckets)
    if (b.completed.count || b.incomplete)
      s += fct_line(size_label(b.completed.lower_bytes, b.completed.upper_bytes), b);
  return s + fct_line("all", fct.all);
}

std::string deadlock_text(const DeadlockVerdict& d) {
  if (!d.detected) return "no";
  return fmt::format("yes, formed at {:.1f} ms", static_cast<double>(d.formed_ns) / 1e6);
}

}  // namespace

nlohmann::ordered_json summary_json(const LabResult& r) {
  nlohmann::ordered_json j;
  j["scenario"] = r.scenario;
  j["clock"] = r.clock;
  j["duration_s"] = r.duration_s;
  j["interrupted"] = r.interrupted;
  if (r.csv_stopped_at_s) j["csv_stopped_at_s"] = *r.csv_stopped_at_s;
  j["seed"] = r.seed;
  j["overrides"] = r.overrides;
  j["failed_links"] = r.failed_links;
  if (r.fct) j["fct"] = fct_json(*r.fct);
  if (r.failure_seed) j["failure_seed"] = *r.failure_seed;
  // GFC §6.2.3: whether the routes have a cyclic buffer dependency (lab/routing_cbd.h).
  j["cbd"] = r.cbd ? nlohmann::ordered_json{{"present", r.cbd->present},
                                            {"dependencies", r.cbd->edges},
                                            {"cycle", r.cbd->cycle},
                                            {"cyclic_links", r.cbd->cyclic_links}}
                   : nlohmann::ordered_json();
  j["deadlock"] = {
      {"detected", r.deadlock.detected},
      {"at_s", seconds_or_null(ns_to_s(r.deadlock.detected, r.deadlock.formed_ns))},
      {"detected_at_s", seconds_or_null(ns_to_s(r.deadlock.detected, r.deadlock.detected_ns))},
      {"cycle", r.deadlock.cycle}};
  nlohmann::ordered_json flows = nlohmann::ordered_json::array();
  for (const FlowResult& f : r.flows) {
    flows.push_back({{"id", f.id},
                     {"from", f.from},
                     {"to", f.to},
                     {"priority", f.priority},
                     {"sent_packets", f.sent_packets},
                     {"sent_bytes", f.sent_bytes},
                     {"received_packets", f.received_packets},
                     {"received_bytes", f.received_bytes},
                     {"lost_packets", f.missing},
                     {"reordered_packets", f.reordered},
                     {"displacement",
                      {{"displaced_packets", f.displaced},
                       {"max", f.max_displacement},
                       {"log2_buckets", f.displacement}}},
                     {"tail_throughput_bps", f.tail_throughput_bps},
                     {"fct_s", seconds_or_null(f.fct_s)},
                     {"delay_mean_s", seconds_or_null(f.delay_mean_s)},
                     {"delay_max_s", seconds_or_null(f.delay_max_s)}});
    if (f.transport) {
      const TransportResult& t = *f.transport;
      flows.back()["transport"] = {{"name", t.name},
                                   {"retransmissions", t.retransmissions},
                                   {"timeouts", t.timeouts},
                                   {"fast_retransmits", t.fast_retransmits},
                                   {"duplicates", t.duplicates},
                                   {"ce_marked", t.ce_marked},
                                   {"acks_sent", t.acks_sent},
                                   {"acks_received", t.acks_received},
                                   {"cnps_sent", t.cnps_sent},
                                   {"cnps_received", t.cnps_received},
                                   {"final_rate_bps", t.final_rate_bps},
                                   {"lowest_rate_bps", t.lowest_rate_bps},
                                   {"final_window_bytes", t.final_window_bytes},
                                   {"completed_s", seconds_or_null(f.completed_s)}};
    }
    if (f.pyrrha_blocked_s) {
      flows.back()["pyrrha_blocked_s"] = *f.pyrrha_blocked_s;
      flows.back()["pyrrha_pauses"] = f.pyrrha_pauses;
    }
    if (f.bounced_packets)
      flows.back()["pabo"] = {{"bounced_packets", *f.bounced_packets},
                              {"max_bounced_distance", f.max_bounced_distance},
                              {"bounce_counts", f.bounce_counts}};
  }
  j["flows"] = flows;
  nlohmann::ordered_json queues = nlohmann::ordered_json::array();
  for (const QueueResult& q : r.queues)
    queues.push_back({{"node", q.node},
                      {"port", q.port},
                      {"prio", q.priority},
                      {"max_ingress_bytes", q.max_ingress_bytes},
                      {"final_ingress_bytes", q.final_ingress_bytes},
                      {"steady_ingress_bytes", q.steady_ingress_bytes},
                      {"tail_input_bps", q.tail_input_bps},
                      {"pause_frames_sent", q.pause_frames_sent},
                      {"resume_frames_sent", q.resume_frames_sent},
                      {"pause_response",
                       {{"samples", q.pause_response_samples},
                        {"p50_ns", q.pause_response_p50_ns},
                        {"p99_ns", q.pause_response_p99_ns},
                        {"max_ns", q.pause_response_max_ns}}},
                      {"engine", counts(q.engine)}});
  j["queues"] = queues;
  nlohmann::ordered_json ports = nlohmann::ordered_json::array();
  for (const PortResult& p : r.ports) {
    ports.push_back({{"node", p.node},
                     {"port", p.port},
                     {"control_frames_received", p.control_frames_received},
                     {"pfc_frames_sent", p.pfc_frames_sent},
                     {"credit_frames_sent", p.credit_frames_sent},
                     {"rate_bps", p.rate_bps},
                     {"link_frames_sent", p.link_frames_sent},
                     {"link_frames_received", p.link_frames_received},
                     {"feedback_share", feedback_share(p, r.duration_s)},
                     {"link_rx_missed", p.link_rx_missed},
                     {"link_down_lost", p.link_down_lost},
                     {"foreign_frames", p.foreign_frames},
                     {"source_mbuf_waits", p.source_mbuf_waits},
                     {"drops", counts(p.drops)}});
    if (!p.pabo.empty()) ports.back()["pabo"] = counts(p.pabo);
    if (!p.ecn.empty()) ports.back()["ecn"] = counts(p.ecn);
    if (!p.pyrrha.empty()) ports.back()["pyrrha"] = counts(p.pyrrha);
  }
  j["ports"] = ports;
  // Only when a switch has something of its own (Pyrrha): other scenarios' summaries stay as
  // they were.
  if (!r.switches.empty()) {
    nlohmann::ordered_json switches = nlohmann::ordered_json::array();
    for (const SwitchResult& s : r.switches) {
      switches.push_back({{"node", s.node}});
      if (s.pyrrha) {
        nlohmann::ordered_json pyrrha = {{"priority", s.pyrrha->priority},
                                         {"switch_id", s.pyrrha->switch_id}};
        for (const auto& [row, value] : s.pyrrha->rows) put_pyrrha_row(pyrrha, *row, value);
        switches.back()["pyrrha"] = pyrrha;
      }
    }
    j["switches"] = switches;
  }
  const FeedbackShareSummary feedback = feedback_share_summary(r);  // GFC Fig. 19
  j["feedback_share"] = {{"ports", feedback.ports},
                         {"mean", feedback.mean},
                         {"p99", feedback.p99},
                         {"max", feedback.max}};
  j["lossless_drops"] = r.lossless_drops;
  j["conservation"] = {
      {"generated", r.conservation.generated}, {"flood_copies", r.conservation.flood_copies},
      {"received", r.conservation.received},   {"dropped", r.conservation.dropped},
      {"in_flight", r.conservation.in_flight}, {"holds", r.conservation.holds()}};
  j["mempool_in_use_after_shutdown"] = r.pool_in_use_after_shutdown;
  j["clock_steps"] = r.clock_steps;
  j["packet_hops"] = r.packet_hops;
  return j;
}

void write_summary(const LabResult& result, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << summary_json(result).dump(2) << '\n';
}

std::string human_summary(const LabResult& r) {
  std::string s = fmt::format(
      "{} ({} clock, {:.1f} ms simulated in {:.2f} s wall, {} steps, "
      "{} packet-hops)\n",
      r.scenario, r.clock, r.duration_s * 1e3, r.wall_s, r.clock_steps, r.packet_hops);
  if (r.interrupted) s += "INTERRUPTED: the run stopped early; this is what ran until then\n";
  if (r.csv_stopped_at_s)
    s += fmt::format("CSV series stop at {:.6f} s (lab.csv_limit); this summary covers the run\n",
                     *r.csv_stopped_at_s);
  for (const std::string& o : r.overrides) s += fmt::format("  --set {}\n", o);
  if (!r.failed_links.empty())
    s += fmt::format("failed links ({}{}): {}\n", r.failed_links.size(),
                     r.failure_seed ? fmt::format(", draw seed {}", *r.failure_seed) : "",
                     fmt::join(r.failed_links, " "));
  uint64_t mbuf_waits = 0;
  for (const PortResult& p : r.ports) mbuf_waits += p.source_mbuf_waits;
  // A source that finds the pool empty waits: the run is then the pool's, not the scenario's.
  if (mbuf_waits)
    s += fmt::format(
        "POOL RAN OUT: sources waited {} times for one of the {} mbufs ([lab] mbufs), so they "
        "sent slower than the scenario says; run again with mbufs = {}\n",
        mbuf_waits, r.pool_mbufs, larger_lab_pool(r.pool_mbufs, r.network_frames));
  if (r.cbd) s += cbd_line(r.cbd) + "\n";
  s += fmt::format("deadlock: {}\n", deadlock_text(r.deadlock));
  if (r.deadlock.detected) {
    std::string cycle;
    for (const std::string& q : r.deadlock.cycle) cycle += q + " → ";
    s += fmt::format("  cycle: {}{}\n", cycle, r.deadlock.cycle.front());
  }
  if (r.flows.size() <= kListedLines) {
    s += "flows (throughput over the last 20 %):\n";
    for (const FlowResult& f : r.flows) s += flow_line(f);
  } else {
    s += flows_in_brief(r);
  }
  if (r.fct && !r.fct->flows.empty()) s += fct_table(*r.fct);
  std::vector<const QueueResult*> queues = loaded_queues(r);
  if (queues.size() <= kListedLines) {
    s += "ingress queues with traffic (KB: max, steady = mean of the last 20 %, final):\n";
  } else {
    s += fmt::format(
        "ingress queues with traffic: the {} fullest of {} (KB: max, steady = mean of the last "
        "20 %, final; every queue: summary.json, queues.csv):\n",
        kListedLines, queues.size());
    std::stable_sort(queues.begin(), queues.end(), [](const QueueResult* a, const QueueResult* b) {
      return a->max_ingress_bytes > b->max_ingress_bytes;
    });
    queues.resize(kListedLines);
  }
  for (const QueueResult* q : queues) s += queue_line(*q);
  s += fmt::format(
      "lossless drops: {}; frames: {} generated{} = {} received + {} dropped + {} in "
      "flight: {}\n",
      r.lossless_drops, r.conservation.generated,
      r.conservation.flood_copies ? fmt::format(" + {} flood copies", r.conservation.flood_copies)
                                  : std::string(),
      r.conservation.received, r.conservation.dropped, r.conservation.in_flight,
      r.conservation.holds() ? "balanced" : "NOT BALANCED");
  for (const SwitchResult& sw : r.switches) {
    if (!sw.pyrrha) continue;
    std::string counts;
    for (const auto& [row, value] : sw.pyrrha->rows)
      if (value) counts += fmt::format(" {}={}", row->counter.name, value);
    s += fmt::format("pyrrha {} (switch {}):{}\n", sw.node, sw.pyrrha->switch_id,
                     counts.empty() ? " nothing counted" : counts);
  }
  const FeedbackShareSummary feedback = feedback_share_summary(r);
  s += fmt::format(
      "feedback frames: {:.3f} % of link capacity on average, {:.3f} % at p99 ({} ports)\n",
      feedback.mean * 100, feedback.p99 * 100, feedback.ports);
  return s;
}

std::string verdict_table(const std::vector<std::pair<std::string, LabResult>>& runs) {
  std::string s = fmt::format("{:<12} {:<24} {:<28} {:>8} {:>14} {:>9}\n", "run", "deadlock",
                              "flow rates (Gb/s)", "max KB", "steady KB", "lossless");
  s += fmt::format("{:<12} {:<24} {:<28} {:>8} {:>14} {:>9}\n", "", "", "last 20 %", "",
                   "last 20 %", "drops");
  for (const auto& [label, r] : runs) {
    // A few flows: each one's rate; a workload's many: their count and mean.
    std::string rates;
    if (r.flows.size() <= kTabledFlowRates) {
      for (const FlowResult& f : r.flows)
        rates += (rates.empty() ? "" : " ") + gbps(f.tail_throughput_bps);
    } else {
      double sum = 0;
      for (const FlowResult& f : r.flows) sum += f.tail_throughput_bps;
      rates = fmt::format("{} flows, mean {}", r.flows.size(),
                          gbps(sum / static_cast<double>(r.flows.size())));
    }
    uint64_t max_bytes = 0;
    double steady_lo = 0, steady_hi = 0;
    bool first = true;
    for (const QueueResult* q : loaded_queues(r)) {
      max_bytes = std::max(max_bytes, q->max_ingress_bytes);
      steady_lo = first ? q->steady_ingress_bytes : std::min(steady_lo, q->steady_ingress_bytes);
      steady_hi = first ? q->steady_ingress_bytes : std::max(steady_hi, q->steady_ingress_bytes);
      first = false;
    }
    s += fmt::format("{:<12} {:<24} {:<28} {:>8} {:>14} {:>9}\n", label, deadlock_text(r.deadlock),
                     rates, kb(static_cast<double>(max_bytes)), kb(steady_lo) + "–" + kb(steady_hi),
                     r.lossless_drops);
  }
  return s;
}

}  // namespace fcswitch::lab

#include "metrics/switch_metrics.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "metrics/flow_control_metrics.h"
#include "metrics/metric_family_set.h"
#include "node/ecn_port_counters.h"
#include "node/flow_control_counters.h"
#include "node/pabo_port_counters.h"
#include "node/pyrrha_switch_counters.h"

namespace fcswitch::metrics {

namespace {

constexpr auto C = MetricType::kCounter;
constexpr auto G = MetricType::kGauge;
constexpr double kNsToSeconds = 1e-9;

// Prometheus buckets from the switch's residence histogram (100 ns buckets, then doubling):
// its own bounds at 0.5, 1, 2, 5, 10 and 12.8 µs, then every doubling bound, so each count is
// exact (no sample of a bucket straddles a bound).
std::vector<std::pair<double, uint64_t>> residence_buckets(const LatencyHistogram& h,
                                                           const TickRate& ticks) {
  constexpr std::array<int, 6> kLinearBounds = {4,  9,  19,
                                                49, 99, LatencyHistogram::kLinearBuckets - 1};
  std::vector<std::pair<double, uint64_t>> buckets;
  uint64_t cumulative = 0;
  size_t next = 0;
  for (int i = 0; i < LatencyHistogram::kBuckets - 1; ++i) {
    cumulative += h.bucket(i);
    const bool bound = i >= LatencyHistogram::kLinearBuckets ||
                       (next < kLinearBounds.size() && i == kLinearBounds[next]);
    if (!bound) continue;
    if (i < LatencyHistogram::kLinearBuckets) ++next;
    buckets.emplace_back(static_cast<double>(ticks.to_ns(h.bucket_upper(i))) * kNsToSeconds,
                         cumulative);
  }
  return buckets;
}

std::string queue_label(int queue) {
  return queue == kLossyQueue ? "lossy" : std::to_string(queue);
}

void collect_ports(MetricFamilySet& out, const std::string& node, const SwitchNode& sw) {
  for (int p = 0; p < sw.ports(); ++p) {
    const std::string& port = sw.config().ports[p].name;
    const Labels at_port = {{"node", node}, {"port", port}};
    out.add("fcswitch_rx_packets_total", C, "Frames received, data and flow control", at_port,
            static_cast<double>(sw.rx_packets(p)));
    out.add("fcswitch_rx_bytes_total", C, "Bytes received, data and flow control", at_port,
            static_cast<double>(sw.rx(p).bytes()));
    out.add("fcswitch_control_frames_received_total", C,
            "Flow-control frames consumed (PFC, GFC stage, credit)", at_port,
            static_cast<double>(sw.rx_control_frames(p)));
    out.add("fcswitch_nic_rx_missed_total", C, "Frames the NIC dropped before software saw them",
            at_port, static_cast<double>(sw.nic_rx_dropped(p)));
    collect_control_decode_errors(out, at_port, sw.rx(p));
    out.add("fcswitch_pfc_frames_sent_total", C, "PFC-layout frames sent (pause, resume, stage)",
            at_port, static_cast<double>(sw.tx(p).pfc_frames_sent()));
    out.add("fcswitch_credit_frames_sent_total", C, "CBFC credit frames sent", at_port,
            static_cast<double>(sw.tx(p).credit_frames_sent()));
    const ResponseTimeBudget& budget = sw.response_time_budget();
    out.add("fcswitch_response_time_budget_seconds", G,
            "The port's response_time: the τ its flow-control thresholds were chosen for", at_port,
            static_cast<double>(sw.config().ports[p].flow_control.response_time_ns) * kNsToSeconds);
    out.add("fcswitch_response_time_measured_seconds", G,
            "τ measured in the last second: pause response p99, or the longest poll gap", at_port,
            static_cast<double>(budget.last_ns(p)) * kNsToSeconds);
    out.add("fcswitch_response_time_over_budget_seconds_total", C,
            "Seconds in which the measured τ exceeded the port's response_time", at_port,
            static_cast<double>(budget.seconds_over(p)));
    out.add("fcswitch_tx_short_frames_padded_total", C,
            "Data frames under 60 bytes padded before transmission", at_port,
            static_cast<double>(sw.tx(p).short_frames_padded()));
    const LatencyHistogram& residence = sw.tx(p).residence();
    out.add_histogram(
        "fcswitch_residence_seconds",
        "Time data frames spent inside the switch, RX poll to TX burst, by egress port", at_port,
        residence_buckets(residence, sw.ticks()), residence.samples(),
        static_cast<double>(sw.ticks().to_ns(residence.sum())) * kNsToSeconds);
    for (const DropReasonInfo& r : kDropReasons) {
      Labels labels = at_port;
      labels.push_back({"reason", std::string(r.name)});
      out.add("fcswitch_drops_total", C, "Packets freed without transmission, by reason",
              std::move(labels), static_cast<double>(sw.drops(p, r.reason)));
    }
    for (int q = 0; q < kNumEgressQueues; ++q) {
      const Labels at_queue = {{"node", node}, {"port", port}, {"prio", queue_label(q)}};
      out.add("fcswitch_tx_packets_total", C, "Packets sent from this egress queue", at_queue,
              static_cast<double>(sw.tx_packets(p, q)));
      out.add("fcswitch_tx_bytes_total", C, "Bytes sent from this egress queue", at_queue,
              static_cast<double>(sw.tx_bytes(p, q)));
      out.add("fcswitch_egress_queue_bytes", G, "Bytes waiting in this egress queue", at_queue,
              static_cast<double>(sw.egress_depth_bytes(p, q)));
      if (q < kNumPriorities && has_priority(sw.ecn_queues(p), q))
        ecn_port_counters(sw, p, q, family_sink(out, at_queue));
    }
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      const Labels at = {{"node", node}, {"port", port}, {"prio", std::to_string(prio)}};
      out.add("fcswitch_admitted_packets_total", C,
              "Packets admitted to the buffer at this ingress port and priority", at,
              static_cast<double>(sw.admitted_packets(p, prio)));
      out.add("fcswitch_admitted_bytes_total", C,
              "Bytes admitted to the buffer at this ingress port and priority", at,
              static_cast<double>(sw.fwd().admitted_bytes(p, prio)));
      out.add("fcswitch_ingress_occupancy_bytes", G,
              "Bytes received at this port and priority still in the switch (what PFC/GFC watch)",
              at, static_cast<double>(sw.ingress_occupancy_bytes(p, prio)));
      out.add("fcswitch_ingress_occupancy_max_bytes", G, "Highest ingress occupancy seen", at,
              static_cast<double>(sw.max_ingress_occupancy_bytes(p, prio)));
      if (has_priority(sw.pabo_priorities(), prio))
        pabo_port_counters(sw, p, prio, family_sink(out, at));
      const TxTask& tx = sw.tx(p);
      if (tx.has_engine(prio)) collect_flow_control(out, at, tx, prio, sw.engine_name(p, prio));
    }
  }
}

void collect_tagger(MetricFamilySet& out, const std::string& node, const TaggerStage& tagger) {
  const Labels at = {{"node", node}};
  out.add("fcswitch_tagger_rewrites_total", C, "Packets whose tag a rule changed", at,
          static_cast<double>(tagger.rewrites()));
  out.add("fcswitch_tagger_demotions_total", C,
          "Packets with no rule for their (tag, in, out), sent on with the lossy tag", at,
          static_cast<double>(tagger.demoted()));
  out.add("fcswitch_tagger_lossy_arrivals_total", C, "Packets that arrived with a non-lossless tag",
          at, static_cast<double>(tagger.lossy_in()));
  for (int r = 0; r < tagger.rules(); ++r)
    out.add("fcswitch_tagger_rule_hits_total", C, "Packets that matched this rule (config order)",
            {{"node", node}, {"rule", std::to_string(r)}},
            static_cast<double>(tagger.rule_hits(r)));
}

// Pyrrha's rows of the switch (node/pyrrha_switch_counters.h), those any thread may read: the
// message counters by `kind`, the IQs by `state`, each under its family.
void collect_pyrrha(MetricFamilySet& out, const std::string& node, const SwitchNode& sw) {
  pyrrha_switch_counters(
      sw, PyrrhaReader::kLive, [&](const PyrrhaSwitchCounter& row, uint64_t value) {
        const EngineMetric metric = engine_metric(row.counter);
        Labels labels = {{"node", node}};
        if (!row.label_name.empty())
          labels.push_back({std::string(row.label_name), std::string(row.label_value)});
        out.add(metric.family, metric.type, metric.help, std::move(labels),
                static_cast<double>(value) * metric.scale);
      });
}

void collect_tasks(MetricFamilySet& out, const std::string& node, const SwitchNode& sw) {
  out.add("fcswitch_flood_copies_total", C,
          "Copies FWD made of flooded frames, each admitted as a packet of its own",
          {{"node", node}}, static_cast<double>(sw.fwd().flood_copies()));
  const std::vector<std::vector<Task*>> lcores = sw.lcore_tasks();
  for (size_t l = 0; l < lcores.size(); ++l)
    for (const Task* task : lcores[l]) {
      const Labels at = {{"node", node}, {"task", task->name()}, {"lcore", std::to_string(l)}};
      out.add("fcswitch_task_polls_total", C, "Polls of this task", at,
              static_cast<double>(task->polls()));
      out.add("fcswitch_task_busy_polls_total", C, "Polls of this task that found work", at,
              static_cast<double>(task->busy_polls()));
      // rate(busy seconds) is the share of its lcore the task takes.
      out.add("fcswitch_task_busy_seconds_total", C, "Time of this task's polls that found work",
              at, static_cast<double>(task->busy_ticks()) / static_cast<double>(sw.ticks().hz));
      out.add("fcswitch_task_late_polls_total", C,
              "Polls that came later than the tightest response_time after the previous one", at,
              static_cast<double>(task->late_polls()));
      out.add(
          "fcswitch_task_late_poll_gap_seconds_total", C,
          "Time between the polls that came late and the polls before them (the task idle)", at,
          static_cast<double>(task->late_poll_gap_ticks()) / static_cast<double>(sw.ticks().hz));
      out.add(
          "fcswitch_task_longest_poll_gap_seconds", G,
          "The longest time between two polls of this task (its thread off its CPU)", at,
          static_cast<double>(task->longest_poll_gap_ticks()) / static_cast<double>(sw.ticks().hz));
    }
}

}  // namespace

std::vector<prometheus::MetricFamily> collect_switch_metrics(
    const std::vector<NamedSwitch>& switches) {
  MetricFamilySet out;
  for (const NamedSwitch& s : switches) {
    collect_ports(out, s.node, *s.switch_node);
    if (const TaggerStage* tagger = s.switch_node->fwd().tagger())
      collect_tagger(out, s.node, *tagger);
    collect_pyrrha(out, s.node, *s.switch_node);
    collect_tasks(out, s.node, *s.switch_node);
    out.add("fcswitch_mempool_mbufs_in_use", G, "Mbufs of the switch's pools not free",
            {{"node", s.node}}, s.switch_node->mempool_in_use());
    out.add("fcswitch_mempool_mbufs", G, "Mbufs in the switch's pools", {{"node", s.node}},
            s.switch_node->mempool_size());
  }
  return out.take();
}

}  // namespace fcswitch::metrics

#include "node/switch_report.h"

#include <fmt/format.h>

namespace fcswitch {

namespace {

std::string queue_name(int queue) {
  return queue == kLossyQueue ? "lossy" : std::to_string(queue);
}

// The flow-control counters of one (port, priority): TX's own, then its engine's.
std::vector<std::pair<std::string, uint64_t>> flow_control_counters(const SwitchNode& node,
                                                                    int port, int prio) {
  const TxTask& tx = node.tx(port);
  std::vector<std::pair<std::string, uint64_t>> counters = {
      {"pause_frames_sent", tx.pause_frames_sent(prio)},
      {"resume_frames_sent", tx.resume_frames_sent(prio)},
      {"blocked_ns", tx.blocked_ns(prio)},
      {"watchdog_storms", tx.watchdog_storms(prio)},
  };
  if (const fc::ResponseTimeMeter* tau = tx.response_time(prio)) {
    counters.emplace_back("pause_response_samples", tau->samples());
    counters.emplace_back("pause_response_p50_ns", tau->quantile_ns(0.5));
    counters.emplace_back("pause_response_p99_ns", tau->quantile_ns(0.99));
    counters.emplace_back("pause_response_max_ns", tau->max_ns());
  }
  tx.engine_counters(prio, [&](std::string_view name, uint64_t value) {
    counters.emplace_back(std::string(name), value);
  });
  return counters;
}

}  // namespace

std::string drop_summary(const SwitchNode& node) {
  std::string line;
  for (int r = 0; r < kNumDropReasons; ++r) {
    uint64_t sum = 0;
    for (int p = 0; p < node.ports(); ++p) sum += node.drops(p, static_cast<DropReason>(r));
    if (sum) line += fmt::format("{}{}={}", line.empty() ? "" : " ", kDropReasonNames[r], sum);
  }
  return line;
}

std::string report_text(const SwitchNode& node, const ShutdownCheck& check) {
  std::string out = fmt::format("switch {}\n", node.config().name);
  for (int p = 0; p < node.ports(); ++p) {
    out += fmt::format("port {}: rx {} packets ({} control frames consumed), nic dropped {}\n",
                       node.config().ports[p].name, node.rx_packets(p), node.rx_control_frames(p),
                       node.nic_rx_dropped(p));
    out += "  prio/queue   admitted in    sent out  sent out bytes\n";
    for (int q = 0; q < kNumEgressQueues; ++q) {
      const uint64_t in = q < kNumPriorities ? node.admitted_packets(p, q) : 0;
      if (!in && !node.tx_packets(p, q)) continue;
      out += fmt::format("  {:>10} {:>13} {:>11} {:>15}\n", queue_name(q), in,
                         node.tx_packets(p, q), node.tx_bytes(p, q));
    }
    for (int r = 0; r < kNumDropReasons; ++r)
      if (uint64_t n = node.drops(p, static_cast<DropReason>(r)))
        out += fmt::format("  drop {}: {}\n", kDropReasonNames[r], n);
    const TxTask& tx = node.tx(p);
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
  }
  if (const TaggerStage* tagger = node.fwd().tagger()) {
    out += fmt::format("tagger: {} rewrites, {} demoted to the lossy tag, {} arrived lossy\n",
                       tagger->rewrites(), tagger->demoted(), tagger->lossy_in());
    out += "  rule hits:";
    for (int r = 0; r < tagger->rules(); ++r) out += fmt::format(" {}", tagger->rule_hits(r));
    out += "\n";
  }
  out += fmt::format("mempool: {} of {} mbufs in use after shutdown{}\n", check.mempool_in_use,
                     check.mempool_size, check.mempool_in_use ? " — LEAK" : "");
  if (!check.drained) out += "drain deadline passed: queued packets were flushed\n";
  return out;
}

std::string report_json(const SwitchNode& node, const ShutdownCheck& check) {
  std::string out = fmt::format("{{\"switch\":\"{}\",\"ports\":[", node.config().name);
  for (int p = 0; p < node.ports(); ++p) {
    out += fmt::format(
        "{}{{\"name\":\"{}\",\"rx_packets\":{},\"control_frames\":{},\"nic_rx_dropped\":{}",
        p ? "," : "", node.config().ports[p].name, node.rx_packets(p), node.rx_control_frames(p),
        node.nic_rx_dropped(p));
    out += ",\"admitted_packets\":[";
    for (int q = 0; q < kNumPriorities; ++q)
      out += fmt::format("{}{}", q ? "," : "", node.admitted_packets(p, q));
    out += "],\"ingress_occupancy_bytes\":[";
    for (int q = 0; q < kNumPriorities; ++q)
      out += fmt::format("{}{}", q ? "," : "", node.ingress_occupancy_bytes(p, q));
    out += "],\"tx_packets\":[";
    for (int q = 0; q < kNumEgressQueues; ++q)
      out += fmt::format("{}{}", q ? "," : "", node.tx_packets(p, q));
    out += "],\"drops\":{";
    for (int r = 0; r < kNumDropReasons; ++r)
      out += fmt::format("{}\"{}\":{}", r ? "," : "", kDropReasonNames[r],
                         node.drops(p, static_cast<DropReason>(r)));
    const TxTask& tx = node.tx(p);
    out += fmt::format(
        "}},\"pfc_frames_sent\":{},\"credit_frames_sent\":{},\"messages_without_engine\":{},"
        "\"control_mbuf_shortages\":{},\"short_frames_padded\":{},\"short_frames_unpadded\":{}",
        tx.pfc_frames_sent(), tx.credit_frames_sent(), tx.messages_without_gate(),
        tx.control_alloc_failures(), tx.short_frames_padded(), tx.short_frames_unpadded());
    out += ",\"flow_control\":{";
    bool first = true;
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      if (!node.tx(p).has_engine(prio)) continue;
      out += fmt::format("{}\"{}\":{{\"engine\":\"{}\"", first ? "" : ",", prio,
                         node.engine_name(p, prio));
      for (const auto& [name, value] : flow_control_counters(node, p, prio))
        out += fmt::format(",\"{}\":{}", name, value);
      out += "}";
      first = false;
    }
    out += "}}";
  }
  out += "]";
  if (const TaggerStage* tagger = node.fwd().tagger()) {
    out +=
        fmt::format(",\"tagger\":{{\"rewrites\":{},\"demoted\":{},\"lossy_in\":{},\"rule_hits\":[",
                    tagger->rewrites(), tagger->demoted(), tagger->lossy_in());
    for (int r = 0; r < tagger->rules(); ++r)
      out += fmt::format("{}{}", r ? "," : "", tagger->rule_hits(r));
    out += "]}";
  }
  out += fmt::format(
      ",\"run_seconds\":{:.6f},\"mempool_size\":{},\"mempool_in_use\":{},\"drained\":{}}}\n",
      check.run_seconds, check.mempool_size, check.mempool_in_use,
      check.drained ? "true" : "false");
  return out;
}

}  // namespace fcswitch

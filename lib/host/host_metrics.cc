#include "host/host_metrics.h"

#include <string>

#include "metrics/flow_control_metrics.h"
#include "metrics/metric_family_set.h"
#include "switch/drop_reasons.h"

namespace fcswitch::host {

namespace {
using metrics::Labels;
constexpr auto C = metrics::MetricType::kCounter;
constexpr auto G = metrics::MetricType::kGauge;
}  // namespace

std::vector<prometheus::MetricFamily> HostCollector::Collect() const {
  metrics::MetricFamilySet out;
  const HostProgramConfig& config = host_.config();
  const lab::TrafficHost& h = host_.host();
  const std::string& node = config.node.name;
  const config::PortConfig& nic = config.node.ports.front();
  const Labels at_port = {{"node", node}, {"port", nic.name}};
  out.add("fcswitch_rx_packets_total", C, "Frames received, data and flow control", at_port,
          static_cast<double>(h.rx().packets()));
  out.add("fcswitch_rx_bytes_total", C, "Bytes received, data and flow control", at_port,
          static_cast<double>(h.rx().bytes()));
  out.add("fcswitch_control_frames_received_total", C,
          "Flow-control frames consumed (PFC, GFC stage, credit)", at_port,
          static_cast<double>(h.rx().control_frames() + h.sink().credit_frames()));
  out.add("fcswitch_nic_rx_missed_total", C, "Frames the NIC dropped before software saw them",
          at_port, static_cast<double>(host_.nic_rx_dropped()));
  collect_control_decode_errors(out, at_port, h.rx());
  out.add("fcswitch_pfc_frames_sent_total", C, "PFC-layout frames sent (pause, resume, stage)",
          at_port, static_cast<double>(h.tx().pfc_frames_sent()));
  out.add("fcswitch_credit_frames_sent_total", C, "CBFC credit frames sent", at_port,
          static_cast<double>(h.tx().credit_frames_sent()));
  for (const DropReasonInfo& r : kDropReasons) {
    Labels labels = at_port;
    labels.push_back({"reason", std::string(r.name)});
    out.add(
        "fcswitch_drops_total", C, "Packets freed without transmission, by reason",
        std::move(labels),
        static_cast<double>(h.rx().drops().read(0, r.reason) + h.tx().drops().read(0, r.reason)));
  }
  for (int q = 0; q < kNumEgressQueues; ++q) {
    const Labels at_queue = {{"node", node},
                             {"port", nic.name},
                             {"prio", q == kLossyQueue ? "lossy" : std::to_string(q)}};
    out.add("fcswitch_tx_packets_total", C, "Packets sent from this egress queue", at_queue,
            static_cast<double>(h.tx().packets(q)));
    out.add("fcswitch_tx_bytes_total", C, "Bytes sent from this egress queue", at_queue,
            static_cast<double>(h.tx().bytes(q)));
  }
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (!h.tx().has_engine(prio)) continue;
    const auto* engine = nic.flow_control.priorities[prio].engine;
    metrics::collect_flow_control(
        out, {{"node", node}, {"port", nic.name}, {"prio", std::to_string(prio)}}, h.tx(), prio,
        engine ? engine->name : "none");
  }
  for (size_t i = 0; i < config.flows.size(); ++i) {
    const Labels at_flow = {{"node", node}, {"flow", std::to_string(config.flows[i].spec.id)}};
    out.add("fchost_flow_sent_bytes_total", C, "Frame bytes this host's flow sent", at_flow,
            static_cast<double>(host_.sent()[i].bytes.read()));
    out.add("fchost_flow_sent_packets_total", C, "Frames this host's flow sent", at_flow,
            static_cast<double>(host_.sent()[i].packets.read()));
  }
  for (uint32_t id = 0; id < config.flow_ids; ++id) {
    const lab::FlowReceived& rx = host_.received()[id];
    if (!rx.packets.read()) continue;
    const Labels at_flow = {{"node", node}, {"flow", std::to_string(id)}};
    out.add("fchost_flow_received_bytes_total", C, "Frame bytes of the flow this host received",
            at_flow, static_cast<double>(rx.bytes.read()));
    out.add("fchost_flow_received_packets_total", C, "Frames of the flow this host received",
            at_flow, static_cast<double>(rx.packets.read()));
    out.add("fchost_flow_missing_total", C, "Sequence numbers of the flow skipped (frames lost)",
            at_flow, static_cast<double>(rx.missing.read()));
    out.add("fchost_flow_reordered_total", C, "Frames of the flow older than one already received",
            at_flow, static_cast<double>(rx.reordered.read()));
  }
  out.add("fcswitch_mempool_mbufs_in_use", G, "Mbufs of the switch's pools not free",
          {{"node", node}}, static_cast<double>(host_.pool_in_use()));
  out.add("fcswitch_mempool_mbufs", G, "Mbufs in the switch's pools", {{"node", node}},
          static_cast<double>(host_.pool_size()));
  return out.take();
}

}  // namespace fcswitch::host

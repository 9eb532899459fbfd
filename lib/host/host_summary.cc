#include "host/host_summary.h"

#include <fmt/format.h>

#include "host/host_program_config.h"
#include "node/flow_control_counters.h"
#include "results/lab_report.h"
#include "switch/drop_reasons.h"
#include "traffic/received_flow_result.h"

namespace fcswitch::host {

namespace {

constexpr int kNic = lab::kHostNicPort;

double seconds(const TickRate& ticks, uint64_t t) {
  return static_cast<double>(ticks.to_ns(t)) / 1e9;
}

// The engine that runs (NIC, priority), as registered; "none" without one.
std::string engine_name(const HostProgramConfig& config, int priority) {
  const auto* engine = config.node.ports.front().flow_control.priorities[priority].engine;
  return engine ? std::string(engine->name) : "none";
}

}  // namespace

lab::LabResult host_result(const PortHost& host, const HostRun& run) {
  const HostProgramConfig& config = host.config();
  const TickRate& ticks = host.ticks();
  const lab::TrafficHost& h = host.host();
  lab::LabResult r;
  r.scenario = config.file;
  r.clock = "wall";
  r.duration_s = run.duration_s;
  r.interrupted = run.interrupted;
  const auto tail_bps = [&](int id, uint64_t received_bytes) {
    if (!run.tail_start_received_bytes || run.tail_s <= 0) return 0.0;
    return static_cast<double>(received_bytes - (*run.tail_start_received_bytes)[id]) * 8.0 /
           run.tail_s;
  };
  // PABO runs on the host: it strips the shim of what it receives and sends bounced frames
  // of its own flows again.
  const bool pabo = config.node.pabo.enabled();
  // Its own flows, as sent (and as received, when sent to itself).
  std::vector<bool> listed(config.flow_ids, false);
  for (size_t i = 0; i < config.flows.size(); ++i) {
    const HostFlow& spec = config.flows[i];
    lab::FlowResult f;
    f.id = spec.spec.id;
    f.from = config.node.name;
    f.to = spec.to;
    f.priority = spec.spec.priority;
    f.sent_packets = host.sent()[i].packets.read();
    f.sent_bytes = host.sent()[i].bytes.read();
    const lab::FlowReceived& rx = host.received()[spec.spec.id];
    lab::add_received(f, rx, ticks);
    if (pabo) lab::add_bounces(f, rx);
    if (spec.spec.transport != lab::FlowTransport::kRaw) {
      f.transport = lab::transport_result(spec.spec.transport, &host.sent()[i], rx);
      f.completed_s = lab::completed_s(spec.spec, host.sent()[i], ticks);
    }
    f.tail_throughput_bps = tail_bps(f.id, f.received_bytes);
    if (h.root_pauses()) {
      // Held by paused roots up to the stop, or to the flow's end if it came first.
      const uint64_t stop = ticks.from_ns(static_cast<uint64_t>(run.duration_s * 1e9));
      const uint64_t until = spec.spec.stop_ns == kNeverTicks
                                 ? stop
                                 : std::min(stop, ticks.from_ns(spec.spec.stop_ns));
      f.pyrrha_blocked_s = seconds(ticks, lab::pyrrha_blocked_ticks(host.sent()[i], until));
      f.pyrrha_pauses = host.sent()[i].pyrrha_pauses.read();
    }
    listed[spec.spec.id] = true;
    r.flows.push_back(std::move(f));
  }
  // Flows from other hosts: what the sink counted of them, and answered for their transport.
  std::vector<const HostReceive*> answered(config.flow_ids, nullptr);
  for (const HostReceive& receive : config.receives) answered[receive.id] = &receive;
  for (uint32_t id = 0; id < config.flow_ids; ++id) {
    const lab::FlowReceived& rx = host.received()[id];
    if (listed[id] || !rx.packets.read()) continue;
    lab::FlowResult f;
    f.id = static_cast<int>(id);
    f.to = config.node.name;
    lab::add_received(f, rx, ticks);
    if (pabo) lab::add_bounces(f, rx);
    if (const HostReceive* receive = answered[id]) {
      f.from = receive->from;
      f.transport = lab::transport_result(receive->transport, nullptr, rx);
    }
    f.tail_throughput_bps = tail_bps(f.id, f.received_bytes);
    r.flows.push_back(std::move(f));
  }

  const config::PortConfig& nic = config.node.ports.front();
  const SwitchState& state = h.state();
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    if (!h.tx().has_engine(prio)) continue;
    lab::QueueResult q;
    q.node = config.node.name;
    q.port = nic.name;
    q.priority = prio;
    q.final_ingress_bytes = state.ingress_occupancy.value(SwitchState::occupancy_slot(kNic, prio));
    q.pause_frames_sent = h.tx().pause_frames_sent(prio);
    q.resume_frames_sent = h.tx().resume_frames_sent(prio);
    // TX's counters (blocked_ns: how long the host's queue waited at a closed gate — paused,
    // out of credits) and the engine's own (frames received, stages, credits).
    const fc::CounterSink add = [&](const fc::CounterDescriptor& counter, uint64_t value) {
      q.engine.emplace_back(std::string(counter.name), value);
    };
    tx_flow_control_counters(h.tx(), prio, add);
    h.tx().engine_counters(prio, add);
    r.queues.push_back(std::move(q));
  }

  lab::PortResult port;
  port.node = config.node.name;
  port.port = nic.name;
  port.rate_bps = nic.rate_bps;
  port.control_frames_received = h.rx().control_frames() + h.sink().credit_frames();
  port.pfc_frames_sent = h.tx().pfc_frames_sent();
  port.credit_frames_sent = h.tx().credit_frames_sent();
  port.link_frames_received = h.rx().packets();
  for (int q = 0; q < kNumEgressQueues; ++q) port.link_frames_sent += h.tx().packets(q);
  port.link_rx_missed = host.nic_rx_dropped();
  port.foreign_frames = h.sink().foreign_frames();
  port.source_mbuf_waits = h.source().alloc_failures();
  if (pabo) port.pabo = lab::host_bounce_counts(h.sink());
  for (const DropReasonInfo& reason : kDropReasons) {
    const uint64_t count =
        h.rx().drops().read(0, reason.reason) + h.tx().drops().read(0, reason.reason);
    if (!count) continue;
    port.drops.emplace_back(std::string(reason.name), count);
    r.lossless_drops += is_lossless_drop(reason.reason) ? count : 0;
  }
  if (run.shutdown_freed) port.drops.emplace_back("shutdown_flush", run.shutdown_freed);
  r.ports.push_back(std::move(port));
  r.pool_in_use_after_shutdown = run.pool_in_use_after_shutdown;
  return r;
}

nlohmann::ordered_json host_summary_json(const PortHost& host, const lab::LabResult& result,
                                         const HostRun& run) {
  const HostProgramConfig& config = host.config();
  const TickRate& ticks = host.ticks();
  nlohmann::ordered_json j = lab::summary_json(result);
  // What a lab network has and one host cannot know: its routes, deadlock, conservation.
  for (const char* key : {"seed", "overrides", "failed_links", "cbd", "deadlock", "conservation",
                          "clock_steps", "packet_hops"})
    j.erase(key);
  j["host"] = {{"name", config.node.name},
               {"mac", host.mac().to_string()},
               {"ip", ipv4_text(config.ip)},
               {"time_zero_unix_s", run.time_zero_unix_s}};
  nlohmann::ordered_json& flows = j["flows"];
  for (size_t i = 0; i < result.flows.size(); ++i) {
    const lab::FlowResult& f = result.flows[i];
    nlohmann::ordered_json& out = flows[i];
    if (i < config.flows.size()) {
      const lab::FlowSpec& spec = config.flows[i].spec;
      out["start_s"] = static_cast<double>(spec.start_ns) / 1e9;
      out["size_bytes"] = spec.size_bytes;
      out["to_mac"] = config.flows[i].to_mac.to_string();
      out["to_ip"] = ipv4_text(config.flows[i].to_ip);
    }
    const lab::FlowReceived& rx = host.received()[f.id];
    if (const uint64_t first = rx.first_ticks.read()) {
      out["first_arrival_s"] = seconds(ticks, first - 1);
      out["last_arrival_s"] = seconds(ticks, rx.last_ticks.read());
    }
  }
  for (nlohmann::ordered_json& q : j["queues"])
    q["engine_name"] = engine_name(config, q["prio"].get<int>());
  return j;
}

std::string host_summary_text(const PortHost& host, const lab::LabResult& r, const HostRun& run) {
  const HostProgramConfig& config = host.config();
  std::string s = fmt::format("host {} ({}, {}): {:.3f} s from time zero{}\n", config.node.name,
                              host.mac().to_string(), ipv4_text(config.ip), run.duration_s,
                              run.interrupted ? " (stopped by a signal)" : "");
  for (size_t i = 0; i < r.flows.size(); ++i) {
    const lab::FlowResult& f = r.flows[i];
    if (i < config.flows.size()) {
      s += fmt::format(
          "  flow {} to {} (prio {}): sent {} frames, {} bytes{}\n", f.id, f.to, f.priority,
          f.sent_packets, f.sent_bytes,
          f.sent_packets ? "" : " — nothing sent (not started, or held by flow control)");
    } else {
      s += fmt::format(
          "  flow {} received: {} frames, {} bytes, {} missing, {} reordered, last 20 %: {:.3f} "
          "Gb/s\n",
          f.id, f.received_packets, f.received_bytes, f.missing, f.reordered,
          f.tail_throughput_bps / 1e9);
      if (f.bounced_packets)
        s += fmt::format("    pabo: {} of them delivered after a bounce\n", *f.bounced_packets);
    }
    if (const auto& t = f.transport; t && i < config.flows.size()) {
      s += fmt::format(
          "    {}: {} ACKs and {} CNPs taken, {} resent ({} timeouts){}{}\n", t->name,
          t->acks_received, t->cnps_received, t->retransmissions, t->timeouts,
          t->final_rate_bps ? fmt::format(", rate at the end {:.3f} Gb/s",
                                          static_cast<double>(t->final_rate_bps) / 1e9)
                            : "",
          f.completed_s ? fmt::format(", complete after {:.6f} s", *f.completed_s) : "");
    } else if (t) {
      s += fmt::format("    {}: answered with {} ACKs and {} CNPs; {} CE-marked, {} duplicates\n",
                       t->name, t->acks_sent, t->cnps_sent, t->ce_marked, t->duplicates);
    }
  }
  for (const lab::QueueResult& q : r.queues) {
    s += fmt::format("  {} prio {} ({}):", q.port, q.priority, engine_name(config, q.priority));
    for (const auto& [name, value] : q.engine)
      if (value) s += fmt::format(" {}={}", name, value);
    s += "\n";
  }
  for (const lab::PortResult& p : r.ports) {
    s += fmt::format(
        "  {}: {} frames received ({} flow control, {} foreign), {} sent ({} PFC-layout, {} "
        "credit)",
        p.port, p.link_frames_received, p.control_frames_received, p.foreign_frames,
        p.link_frames_sent, p.pfc_frames_sent, p.credit_frames_sent);
    if (!p.drops.empty()) {
      s += "; drops:";
      for (const auto& [name, count] : p.drops) s += fmt::format(" {}={}", name, count);
    }
    if (!p.pabo.empty()) {
      s += "; pabo:";
      for (const auto& [name, count] : p.pabo) s += fmt::format(" {}={}", name, count);
    }
    s += "\n";
  }
  s += fmt::format("  lossless drops {}; mbufs in use after shutdown {}\n", r.lossless_drops,
                   r.pool_in_use_after_shutdown);
  return s;
}

}  // namespace fcswitch::host

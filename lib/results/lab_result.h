#pragma once
// What a lab run measured: the numbers summary.json holds, for tests and the report.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "node/pyrrha_switch_counters.h"
#include "results/deadlock_verdict.h"
#include "results/flow_fct_report.h"
#include "results/routing_cbd_result.h"

namespace fcswitch::lab {

using NamedCounts = std::vector<std::pair<std::string, uint64_t>>;

// A flow's transport (lab_scenario.h FlowTransport), when it is not raw.
struct TransportResult {
  std::string name;
  uint64_t retransmissions = 0, timeouts = 0, fast_retransmits = 0;
  uint64_t duplicates = 0;  // copies the sink had already
  uint64_t ce_marked = 0;   // frames that reached the sink CE-marked
  uint64_t acks_sent = 0, acks_received = 0, cnps_sent = 0, cnps_received = 0;
  uint64_t final_rate_bps = 0;      // DCQCN's R_C at the end
  uint64_t lowest_rate_bps = 0;     // the lowest rate it was set to
  uint64_t final_window_bytes = 0;  // the window in force at the end
};

struct FlowResult {
  int id = 0;
  std::string from, to;
  int priority = 0;
  uint64_t sent_packets = 0, sent_bytes = 0;
  uint64_t received_packets = 0, received_bytes = 0;
  uint64_t missing = 0, reordered = 0;
  // Reorder Density (lab/reorder_density.h): frames received with d ≠ 0, the largest |d|, and
  // the count in each |d| bucket (0, 1, 2–3, …, 128+).
  uint64_t displaced = 0, max_displacement = 0;
  std::vector<uint64_t> displacement;
  double tail_throughput_bps = 0;  // frame bytes received over the last 20 % of the run
  std::optional<double> fct_s;     // sized flows received whole: last arrival − start
  // Per-packet delay of the distinct frames received (frames of at least 66 bytes): mean, max.
  std::optional<double> delay_mean_s, delay_max_s;
  // PABO (scenarios with [pabo]): frames delivered after a bounce, and of all delivered
  // frames how many had each maxBouncedDistance (0, 1, 2, 3+) and each n_p (0 … 30, 31+).
  std::optional<uint64_t> bounced_packets;
  std::vector<uint64_t> max_bounced_distance, bounce_counts;
  std::optional<TransportResult> transport;
  // Pyrrha (its source host runs it): the time the flow was held by a paused congestion root
  // on its path (from its start to its end), and the times it was stopped (Pyrrha §4.4).
  std::optional<double> pyrrha_blocked_s;
  uint64_t pyrrha_pauses = 0;
  // A sized reliable flow: when its source had every ACK, from its start.
  std::optional<double> completed_s;
};

// One (node, port, priority) that runs a flow-control engine.
struct QueueResult {
  std::string node, port;
  int priority = 0;
  uint64_t max_ingress_bytes = 0;    // the highest ingress occupancy (switches: exact)
  uint64_t final_ingress_bytes = 0;  // at the end
  double steady_ingress_bytes = 0;   // mean of the samples in the last 20 % of the run
  double tail_input_bps = 0;         // bytes admitted at this ingress over the last 20 %
  uint64_t pause_frames_sent = 0, resume_frames_sent = 0;
  // τ measured at this input after each XOFF (fc/response_time_meter.h); 0 samples: none.
  uint64_t pause_response_samples = 0;
  uint64_t pause_response_p50_ns = 0, pause_response_p99_ns = 0, pause_response_max_ns = 0;
  NamedCounts engine;  // the engine's own counters (stages, credits, frames received, …)
};

struct PortResult {
  std::string node, port;
  uint64_t control_frames_received = 0;
  uint64_t pfc_frames_sent = 0, credit_frames_sent = 0;  // GFC stage frames count as PFC's
  uint64_t rate_bps = 0;                                 // the port's link rate
  // Frames its link delivered from this port and to it (data and control): a port with
  // neither carried no traffic (GFC Fig. 19 is over the ports that did).
  uint64_t link_frames_sent = 0, link_frames_received = 0;
  NamedCounts drops;            // reasons with a non-zero count
  uint64_t link_rx_missed = 0;  // frames the link found no room for at this port
  uint64_t link_down_lost = 0;  // frames this port sent into its link while it was cut
  // Hosts: frames of no lab flow (dropped by the sink), and times a flow waited for an mbuf
  // (the scenario's pool is too small: nothing is lost, the flow is slowed).
  uint64_t foreign_frames = 0, source_mbuf_waits = 0;
  // PABO (scenarios with [pabo]): switches, node/pabo_port_counters.h summed over the
  // priorities; hosts, bounced frames sent again and those their bounce queue refused.
  NamedCounts pabo;
  // ECN (switch ports with a marking queue): node/ecn_port_counters.h summed over the queues.
  NamedCounts ecn;
  // Pyrrha (hosts that run it): its messages received, by kind, and the roots paused at the end.
  NamedCounts pyrrha;
};

// Pyrrha's rows of a switch that runs it (node/pyrrha_switch_counters.h): those FWD publishes,
// at the end of the run, each with its row of the table (its name, and its group in JSON).
struct PyrrhaResult {
  int priority = 0;
  uint32_t switch_id = 0;  // the lab's: the switch's index in the topology (root ids name it)
  std::vector<std::pair<const PyrrhaSwitchCounter*, uint64_t>> rows;
};

// What a switch reports once, not per port.
struct SwitchResult {
  std::string node;
  std::optional<PyrrhaResult> pyrrha;
};

struct Conservation {
  uint64_t generated = 0;     // frames the flows sent, and the ACKs and CNPs the sinks sent
  uint64_t flood_copies = 0;  // copies the switches made to flood a frame: frames of their own
  uint64_t received = 0;      // frames the sinks took for their flows (duplicates too), ACKs, CNPs
  uint64_t dropped = 0;    // every drop counter of the switches, hosts (foreign frames) and links
  uint64_t in_flight = 0;  // frames still in the network at the end (the data pool in use)
  bool holds() const { return generated + flood_copies == received + dropped + in_flight; }
};

struct LabResult {
  std::string scenario, clock;
  std::vector<std::string> overrides;
  uint64_t seed = 0;
  // Sized flows' FCT and slowdown by size bucket; with [topology] routing only (the ideal FCT
  // needs each flow's path).
  std::optional<FctReport> fct;
  std::vector<std::string> failed_links;  // [topology] failures, before the run
  std::optional<uint64_t> failure_seed;   // of the random draw; none for links named in the file
  std::optional<RoutingCbd> cbd;          // the routes' cyclic buffer dependency; none: static
  double duration_s = 0;
  // Stopped by the caller (SIGINT/SIGTERM to fclab) at `duration_s` of simulated time: what
  // ran is reported, but not the run the scenario asked for.
  bool interrupted = false;
  // The CSV series stopped here, at [lab] csv_limit (LabSampler): none if they cover the run.
  std::optional<double> csv_stopped_at_s;
  std::vector<FlowResult> flows;
  std::vector<QueueResult> queues;
  std::vector<PortResult> ports;
  // The switches with something of their own to report (today: those that run [pyrrha]), in
  // node order: lab::switch_results (lab/switch_results.h), which fclab calls after the run.
  std::vector<SwitchResult> switches;
  DeadlockVerdict deadlock;
  Conservation conservation;
  uint64_t lossless_drops = 0;  // drops of frames of lossless priorities: must stay 0
  unsigned pool_in_use_after_shutdown = 0;
  unsigned pool_mbufs = 0;      // [lab] mbufs: the frames the network may hold at once
  uint64_t network_frames = 0;  // the most data frames the network can hold (lab_frame_capacity)
  // How the run went (stdout only: not deterministic in wall-clock terms).
  double wall_s = 0;
  uint64_t clock_steps = 0;
  uint64_t packet_hops = 0;  // frames delivered by links
};

}  // namespace fcswitch::lab

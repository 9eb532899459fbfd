#pragma once
// One [[workloads]] entry of a lab scenario: flows generated from a distribution instead of
// listed one by one in [[flows]]. lab/workload_flows.h turns the entries into FlowSpecs.
//
//   kind = "poisson"  open-loop Poisson background (Pyrrha §6; pFabric, HPCC, Homa): each host
//                     of `hosts` starts flows by Poisson arrivals at load × its link rate, sizes
//                     drawn from `cdf`, each to a host of `hosts` in another rack (GFC §6.2.3).
//                     Keys: cdf, load.
//   kind = "incast"   Pyrrha §6's periodic N-to-1 incasts ("incastmix"): every `period` (or the
//                     period that loads the destination's link to `load`, as
//                     workload::incast_period_ns derives it), `senders` flows from hosts of
//                     `hosts` outside the destination's rack go to one destination of `to`
//                     (default: the first host of each rack, in turn, as Pyrrha's ns-3 code).
//                     Keys: senders, size or size_mtus, period or load, to, jitter.
//   kind = "burst"    Pyrrha §4.5's stress test of IQ use (Fig. 7: "(m − 1) out of m ToRs send
//                     traffic simultaneously to the left 1/m of the ToRs … each host sends 40
//                     one-BDP flows"): at `start`, every host of `hosts` that is not one of
//                     `to` starts `flows` flows of `size`, each to a host of `to` outside its
//                     own rack drawn uniformly. The flows start together, so a host's flows
//                     take turns on its link and it sends them as one continuous burst.
//                     Keys: flows, size, to (no stop: nothing starts after `start`).
//   kind = "closed-loop"  GFC §6.2.3's large-scale workload: "each host randomly chooses a
//                     destination in different racks to start a new flow. Once this flow is
//                     finished, the host repeats the above process." At `start` every host of
//                     `hosts` starts one flow, size drawn from `cdf`, to a host of `hosts` in
//                     another rack; when the destination has received all of it (the end of
//                     its FCT) the source starts the next one, until `stop`. Only the first
//                     flows are expanded before the run; the lab makes the others as flows end
//                     (lab/closed_loops.h). A flow that never completes (frames lost over the
//                     raw transport, a deadlock) holds its host's loop there. The CSV size
//                     check before the run counts only the first flows. Keys: cdf, stop.
//   All: priority or dscp, frame, transport, start, hosts, seed; stop for poisson, incast and
//   closed-loop.
//
// Sizes are in the lab's unit: bytes of Ethernet frames without FCS (FlowSpec::size_bytes; a
// source sends `frame`-byte frames until it has sent that many). A CDF's sizes are taken as
// such; with 1514-byte frames the 42 bytes of headers a frame make its data 2.8 % less than the
// size, the same for every scheme compared. An incast MTU is one `frame`.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/table_reader.h"
#include "scenario/flow_transport.h"
#include "scenario/workload_hosts.h"
#include "workload/flow_size_cdf.h"

namespace fcswitch::lab {

enum class WorkloadKind : uint8_t { kPoisson, kIncast, kBurst, kClosedLoop };

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::kPoisson;
  std::string where;  // "file:line:col: workloads[i]": for messages about its flows

  // poisson, closed-loop
  std::string cdf_file;  // resolved path
  std::shared_ptr<const workload::FlowSizeCdf> sizes;
  // poisson: the sources' load; incast: the destination's (when period_ns is 0). In (0, 1].
  double load = 0;

  // incast
  int senders = 0;
  uint64_t size_bytes = 0;                // every flow this size; 0: size_mtus (burst: required)
  uint32_t min_mtus = 30, max_mtus = 40;  // Pyrrha §6: 30–40 MTUs
  uint64_t period_ns = 0;                 // 0: from load
  // incast: destinations, in turn; empty: first host of each rack. burst: the destinations.
  std::vector<std::string> to;
  uint64_t jitter_ns = 100;  // each flow starts up to this late (Pyrrha's code: 100 ns)

  // burst
  int flows_per_host = 0;

  // both
  uint8_t dscp = 0;
  uint32_t frame_bytes = 1514;
  FlowTransport transport = FlowTransport::kRaw;
  uint64_t start_ns = 0;
  std::optional<uint64_t> stop_ns;  // no new flow from here on; nullopt: the run's end
  std::vector<std::string> hosts;   // the hosts taking part; empty: every host
  uint64_t seed_offset = 0;         // added to the scenario's seed for this entry's streams
};

struct WorkloadFiles {
  std::string scenario_dir;   // a relative `cdf` path is relative to this
  std::string workloads_dir;  // a bare `cdf` name ("web-search") is workloads_dir/NAME.cdf
};

// Reads the `workloads` array of `root` (absent: none). Every problem goes to root's problems,
// located (file:line:col: workloads[i].key: expected …, found …): an unknown kind or key, a load
// out of (0, 1], a CDF that does not read or parse (its own file:line:col inside the message),
// a host name that is not one of `hosts`, hosts that leave no other rack to send to or from.
// Entries with problems are left out; expand them only when the scenario as a whole has none.
// `transport`: the scenario's [transport], which an entry's `transport` must fit (a window of
// at least one frame).
std::vector<WorkloadSpec> read_workloads(config::TableReader& root, const HostInfo& hosts,
                                         const WorkloadFiles& files,
                                         const TransportSettings& transport = {});

// Indices into hosts.hosts of the hosts taking part in `spec` (`hosts`, or every host).
// Throws std::invalid_argument on a name that is not a host's.
std::vector<int> workload_participants(const WorkloadSpec& spec, const HostInfo& hosts);
// A burst's senders: the hosts taking part that are not among its destinations (`to`).
std::vector<int> burst_senders(const WorkloadSpec& spec, const HostInfo& hosts);

// The path a `cdf` value names (see WorkloadFiles).
std::string resolve_cdf_path(const std::string& value, const WorkloadFiles& files);

}  // namespace fcswitch::lab

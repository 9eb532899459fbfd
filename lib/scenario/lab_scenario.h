#pragma once
// A lab scenario (docs/architecture.md), read from TOML: the nodes (switches configured with the
// fcswitch schema, and hosts), the links between their ports, the flows, the clock, how long
// to run and what to sample. config/lab/gfc-ring.toml is the worked example; every key is
// documented there and in docs/lab.md. scenario/scenario_file.h reads one.
//
// The scenario's top-level [switch], [classify], [buffer] and [flow_control] tables are the
// fcswitch config every node starts from; a [[switches]] or [[hosts]] entry may override any
// of them for itself. The lab fills in what it owns: each port's device (a ring) and rate
// (its link's), the switch name, and the FIB from `routes`. `--set key=value` overrides are
// merged into the scenario before it is read, so one file serves every engine.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "config/switch_config.h"
#include "core/tick_rate.h"
#include "scenario/flow_transport.h"
#include "scenario/lab_routing.h"
#include "wire/mac_address.h"
#include "workload/flow_size_cdf.h"

namespace fcswitch::lab {

// kVirtualPollAll is the virtual clock polling every task and link until nothing moves at
// every step, as before LabSchedule: slow, and there to check what the schedule skips (the
// same results where FWD's and hosts' round robins decide nothing: lab/lab_schedule.h).
enum class LabClock : uint8_t { kVirtual, kVirtualPollAll, kWall };
inline bool is_virtual(LabClock clock) {
  return clock != LabClock::kWall;
}
// As [lab] clock spells it.
inline const char* clock_name(LabClock clock) {
  return clock == LabClock::kWall             ? "wall"
         : clock == LabClock::kVirtualPollAll ? "virtual-poll-all"
                                              : "virtual";
}

struct PortRef {
  int node = -1;  // index into LabScenario::nodes
  int port = 0;   // index into that node's config.ports
};

struct LabNode {
  std::string name;
  bool host = false;
  // A host's config has one port, its NIC ("nic"), which runs the same engines as a switch
  // port; its [switch] name is the host's.
  config::SwitchConfig config;
  wire::MacAddress mac;  // hosts: the address flows are sent to and from
  // Switches: the FIB entries of their own (`routes`, [[fib]]), which routing never replaces;
  // config.fib holds these and the routed ones.
  std::vector<config::FibEntry> static_fib;
};

// The MACs `entries` route (the hosts a switch routes itself).
std::unordered_set<uint64_t> fib_macs(const std::vector<config::FibEntry>& entries);
// A switch's own routes after an [[events]] `switch` event: `routes` replace those it had for
// their hosts and are added to the rest (they win over routing from then on).
void replace_static_routes(std::vector<config::FibEntry>& mine,
                           const std::vector<config::FibEntry>& routes);

struct LabLinkSpec {
  PortRef a, b;
  uint64_t rate_bps = 10'000'000'000;
  uint64_t delay_ns = 0;
};

struct FlowSpec {
  int id = 0;
  int src = -1, dst = -1;  // host nodes
  uint8_t dscp = 0;
  uint8_t priority = 0;         // what the source host's classifier makes of `dscp`
  uint32_t frame_bytes = 1514;  // Ethernet frame without FCS
  uint64_t size_bytes = 0;      // 0: sends until stop_ns
  uint64_t start_ns = 0;
  uint64_t stop_ns = kNeverTicks;
  uint64_t rate_bps = 0;           // 0: as fast as the host's port and its flow control allow
  uint64_t on_ns = 0, off_ns = 0;  // on-off pattern; 0: always on
  // On-off with a burst: exactly this many frames from the start of each on phase, however
  // long they take to leave (PABO §V: numPacketsPerGenerate, then a pause); 0: none.
  uint64_t burst_packets = 0;
  FlowTransport transport = FlowTransport::kRaw;
  // Of a closed-loop workload: its index in LabScenario::closed_loops, and the source's index
  // among that loop's hosts (ClosedLoopSpec::nodes); -1: not of one.
  int closed_loop = -1;
  int loop_host = -1;

  // A closed loop's flow whose destination has all its bytes: it has left its source, and its
  // series end (the lab's sampler, Pyrrha's path updates).
  bool loop_flow_whole(uint64_t received_bytes) const {
    return closed_loop >= 0 && received_bytes >= size_bytes;
  }
  // A sized flow whose destination has all its bytes (distinct frames: a transport's copies
  // are not counted twice): its rows in the lab's samples end.
  bool received_whole(uint64_t received_bytes) const {
    return size_bytes && received_bytes >= size_bytes;
  }
};

// What the lab needs during the run to make a closed-loop workload's next flows
// (lab/workload_spec.h kind "closed-loop", lab/closed_loops.h).
struct ClosedLoopSpec {
  std::shared_ptr<const workload::FlowSizeCdf> sizes;
  std::vector<int> nodes;  // the hosts taking part (node indices), in order
  std::vector<int> racks;  // each one's rack (the node its link goes to)
  uint64_t seed = 0;       // workload::ClosedLoopWorkload's
  uint64_t start_ns = 0;
  uint64_t stop_ns = 0;  // no flow starts from here on
};

// Something that happens to the network during the run ([[events]]).
struct LabEvent {
  enum class Kind : uint8_t { kFailLink, kRestoreLink, kRoute };
  Kind kind = Kind::kFailLink;
  uint64_t at_ns = 0;
  int link = -1;        // kFailLink, kRestoreLink: index into LabScenario::links
  bool reroute = true;  // kFailLink, kRestoreLink: routes recomputed ([topology] routing)
  int node = -1;        // kRoute: the switch
  std::vector<config::FibEntry> routes;  // kRoute: its new static routes (they win from now on)
};

struct DeadlockSettings {
  // A queue is blocked once it has held packets, with its gate closed, and sent nothing for
  // this long: longer than any pause a moving network holds a queue for.
  uint64_t blocked_for_ns = 5'000'000;
  uint64_t check_interval_ns = 500'000;
};

// The most [lab] mbufs a scenario may ask (2^22 − 1: 1.8 GB of lab frames).
inline constexpr unsigned kMaxLabMbufs = 4'194'303;
// The pool to run again with when `mbufs` ran out: twice the size (2^n − 1 stays so), or
// enough for every frame the network can hold (lab/lab_frame_capacity.h), whichever is larger,
// up to kMaxLabMbufs.
constexpr unsigned larger_lab_pool(unsigned mbufs, uint64_t network_frames = 0) {
  uint64_t size = 2 * static_cast<uint64_t>(mbufs) + 1;
  while (size < network_frames) size = 2 * size + 1;
  return size >= kMaxLabMbufs ? kMaxLabMbufs : static_cast<unsigned>(size);
}

struct LabScenario {
  std::string file;
  std::string name;
  std::vector<std::string> overrides;  // the --set arguments, as given
  std::vector<std::string> warnings;   // rules a node config broke on purpose
  LabClock clock = LabClock::kVirtual;
  uint64_t duration_ns = 0;
  uint64_t seed = 1;
  uint64_t sample_interval_ns = 100'000;
  // "file:line:column" of the key (or of [lab]), or "--set key=value:1:column", for messages
  std::string sample_interval_place;
  // The CSV time series a run may write (`csv_limit`): a run sure to write more is refused
  // before it starts, rather than filling the disk over hours; one that only may stops its
  // files at the limit (LabSampler).
  uint64_t csv_limit_bytes = 1'000'000'000;
  uint64_t start_jitter_ns = 0;  // each flow starts up to this much late, drawn from the seed
  unsigned tx_ring_frames = 4;   // every port's NIC TX ring, in frames
  unsigned mbufs = 32767;        // the hosts' shared data pool, at most kMaxLabMbufs
  DeadlockSettings deadlock;
  std::vector<LabNode> nodes;
  std::vector<LabLinkSpec> links;
  std::vector<FlowSpec> flows;  // a closed loop's first flows among them; the run adds the others
  std::vector<ClosedLoopSpec> closed_loops;
  TransportSettings transport;
  // [topology] failures: the links failed before the run ("S1:p2-L3:p1") and, when they were
  // drawn at random, the draw's seed.
  std::vector<std::string> failed_links;
  std::optional<uint64_t> failure_seed;
  LabRouting routing;  // [topology] routing: how the FIB entries were made, to remake them
  std::vector<LabEvent> events;  // in time order

  // The port at the far end of each port's link ([node][port]; node -1 when it has none), in
  // one pass over the links.
  std::vector<std::vector<PortRef>> peers() const;
  std::string port_name(PortRef port) const;  // "S1:p2", or the host's name
};

}  // namespace fcswitch::lab

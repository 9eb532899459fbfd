#pragma once
// Everything a switch (or a lab host) is told, as plain values: what the config reader
// (lib/config) fills in and the node (lib/node) builds ports and tasks from. No logic here
// beyond lookups; `config/reference.toml` documents each field's key and default.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/traffic_class.h"
#include "core/units.h"
#include "fc/engine.h"
#include "params/buffer_params.h"
#include "params/ecn_params.h"
#include "params/flow_control_params.h"
#include "params/observability_params.h"
#include "params/pabo_params.h"
#include "params/priority_maps.h"
#include "params/pyrrha_params.h"
#include "params/scheduler_params.h"
#include "params/tagger_settings.h"
#include "wire/mac_address.h"

namespace fcswitch::config {

// Which set of port settings a device needs (lib/dpdk/nic_profile.h says what each does).
enum class NicProfileKind : uint8_t { kAuto, kVdev, kIxgbe82599 };

struct PortConfig {
  std::string name;
  std::string device;  // DPDK device string: PCI address or vdev with its arguments
  NicProfileKind profile = NicProfileKind::kAuto;
  std::optional<wire::MacAddress> mac;  // default: the device's own
  uint64_t rate_bps = 10'000'000'000;
  uint64_t rate_limit_bps = 0;  // cap the port below its rate (shaping/port_pacer.h); 0: none
  // The device takes frames as fast as the CPU hands them over (memif, ring, tap: no wire), so
  // TX paces data at the port's rate (or rate_limit) as a cable would.
  bool emulate_wire = false;
  uint32_t wire_overhead_bytes = 24;  // per frame on the wire beyond DPDK's length (rate limits)
  uint16_t rx_descriptors = 0;        // 0: the profile's default
  uint16_t tx_descriptors = 0;
  uint32_t mtu = 0;  // the largest IP packet (frame − Ethernet header, − tag); 0: the device's
  // Frames TX commits past its gates at a time, at most the free descriptors.
  uint16_t tx_burst = 32;
  uint16_t control_ether_type = 0x8808;  // frames of this type are consumed by RX
  SchedulerConfig scheduler;
  PortFlowControl flow_control;
  PortEcn ecn;  // [ports.ecn] over [ecn]: the queues that mark here, and how

  // Frames TX may have committed past its gates that have not left: what one commit passes
  // (tx_burst, at most the ring where tx_descriptors says its depth; the lab sets it to its
  // link's TX ring) and the frame on the wire. GFC Eq. 6 counts 1.
  uint32_t committed_frames() const {
    const uint32_t commit = tx_descriptors ? std::min(tx_burst, tx_descriptors) : tx_burst;
    return commit + 1u;
  }
  // The largest frame the port sends or takes: the MTU (1500 where the device's) + Ethernet
  // header + VLAN tag.
  uint32_t max_frame_bytes() const {
    return (mtu ? mtu : 1500u) + kEthernetHeaderBytes + kVlanTagBytes;
  }
  // The link this port's flow-control engines serve, B_m = `buffer_bytes`: one helper for the
  // config's checks and the engines' construction, so that they see the same stages.
  fc::LinkParams link_params(uint64_t buffer_bytes) const {
    return fc::LinkParams{rate_bps, flow_control.response_time_ns, buffer_bytes, max_frame_bytes(),
                          committed_frames()};
  }
};

struct FibEntry {
  wire::MacAddress mac;
  int port = 0;  // index into SwitchConfig::ports
  // More than one: an ECMP group; each flow takes the member its 5-tuple hashes to
  // (topology/flow_hash.h, with SwitchConfig::ecmp_seed). `port` is then the first.
  std::vector<int> group;
};

enum class TaskKind : uint8_t { kRx, kFwd, kTx };

struct TaskRef {
  TaskKind kind = TaskKind::kFwd;
  int port = -1;  // for kRx and kTx
  friend bool operator==(const TaskRef&, const TaskRef&) = default;
};

// Where a switch holds the packets it has admitted, and how its egresses take them.
enum class Queueing {
  // A shared-buffer switch: one FIFO per egress queue (with ingress accounting).
  kOutput,
  // One lane per ingress port in each egress queue, served in turn: every input gets its turn
  // at every egress, and no input waits for an egress its packet does not go to.
  kInputFair,
  // An input-queued switch, as the GFC testbed's (DPDK test-pipeline, GFC §6.1.1): per
  // (ingress port, priority) one FIFO; a packet leaves it only from its head, only when its
  // egress queue has room, so a held egress holds back every input whose head goes to it.
  kInputHol,
};

// How an input-queued switch matches its input FIFOs' heads to egress queues with room.
enum class Crossbar {
  // The inputs take turns, one head each per pass, wherever it goes (test-pipeline's worker
  // forwards a burst of one input, then the next): an input whose packets go to several
  // egresses gets less of each than an input whose packets all go to one.
  kInputTurns,
  // Each egress queue grants one requesting head per pass, round robin over the inputs: every
  // input that requests an egress gets an equal share of it (a fair crossbar, as iSLIP).
  kEgressRoundRobin,
};

struct EalConfig {
  std::vector<std::string> args;
  std::vector<int> cpus;  // [eal] cpus ("0-3,8"), in list order; empty: the process's affinity
  // [eal] idle_sleep: a worker with nothing to do sleeps this long (0: it polls on). For several
  // processes sharing few CPUs (tools/testbed_rehearsal.sh), not for a testbed.
  uint64_t idle_sleep_ns = 0;
};

struct SwitchConfig {
  std::string file;
  // Rules the file broke on purpose (a GFC bound with allow_theorem_violation): log them.
  std::vector<std::string> warnings;
  std::string name = "fcswitch";
  EalConfig eal;
  std::vector<PortConfig> ports;
  PriorityMaps priority_maps = PriorityMaps::standard();
  PriorityMask lossless_priorities = 0;
  SharedBufferConfig buffer;
  bool mac_learning = true;
  uint32_t ecmp_seed = 0;      // [switch] ecmp_seed: differs per switch so groups do not polarise
  bool decrement_ttl = false;  // [switch] decrement_ttl: as a router, so loops end
  Queueing queueing = Queueing::kOutput;      // [switch] queueing
  Crossbar crossbar = Crossbar::kInputTurns;  // [switch] crossbar (input-hol only)
  std::optional<TaggerSettings> tagger;       // [tagger]
  PaboParams pabo;                            // [pabo]: packet bounce
  std::optional<PyrrhaSettings> pyrrha;       // [pyrrha]: congestion-root flow control
  EcnParams ecn;                              // [ecn]: the marking draws (profiles: per port)
  std::optional<MetricsConfig> metrics;       // [metrics]: Prometheus exposer
  std::optional<TraceConfig> trace;           // [trace]: high-resolution occupancy trace
  std::vector<FibEntry> fib;
  // The FIB's capacity, static and learned entries together. Not a key: a testbed switch
  // learns what its network holds; the lab sizes it to its hosts (a fat-tree of k = 16 has
  // 320 switches, and a table of 16 384 takes 0.4 MB).
  uint32_t fib_entries = 16384;
  uint32_t mbufs = 65535;
  uint32_t mbuf_cache = 256;
  uint32_t fwd_ring_packets = 4096;       // each RX → FWD ring
  uint32_t egress_queue_packets = 16384;  // each (port, queue) ring
  std::string layout_name = "compact";
  std::vector<std::vector<TaskRef>> lcores;  // worker lcore i runs lcores[i], in order
  // Not a key: set by the lab, whose ring ports pass the sender's mbufs on, so the switch's
  // own pool holds only flood copies (no warning that it is smaller than the buffer).
  bool mbufs_from_links = false;
  // Not a key: set by the lab, where one thread runs the node's tasks and is the only reader of
  // its rings' counts (its samples): a ring that empties may start again at its first slot
  // (SwitchState::rewind_empty_rings).
  bool rings_of_one_thread = false;
  // Not a key: set by the lab, whose deadlock detector asks which egress queues hold bytes from
  // which ingress (SwitchNode::queued_from_bytes); each packet then pays a charge and a release.
  bool count_queued_from = false;

  // The port with a flow-control engine whose response_time (its τ budget) is the smallest;
  // null when no port has an engine.
  const PortConfig* tightest_response_time() const {
    const PortConfig* tightest = nullptr;
    for (const auto& port : ports) {
      bool has_engine = false;
      for (const auto& prio : port.flow_control.priorities) has_engine |= prio.engine != nullptr;
      if (has_engine && (!tightest || port.flow_control.response_time_ns <
                                          tightest->flow_control.response_time_ns))
        tightest = &port;
    }
    return tightest;
  }

  int port_index(std::string_view name) const {  // -1 when there is none
    for (size_t i = 0; i < ports.size(); ++i)
      if (ports[i].name == name) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace fcswitch::config

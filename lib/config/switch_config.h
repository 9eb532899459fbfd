#pragma once
// Everything `fcswitch CONFIG.toml` is told, validated. `config/*.toml` documents each key.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "config/flow_control_config.h"
#include "config/observability_config.h"
#include "core/traffic_class.h"
#include "switch/egress_scheduler.h"
#include "switch/priority_classifier.h"
#include "switch/shared_buffer_policy.h"
#include "switch/tagger_stage.h"
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
  uint64_t rate_limit_bps = 0;        // cap the port below its rate (shaping/port_pacer.h); 0: none
  uint32_t wire_overhead_bytes = 24;  // per frame on the wire beyond DPDK's length (rate limits)
  uint16_t rx_descriptors = 0;        // 0: the profile's default
  uint16_t tx_descriptors = 0;
  uint16_t control_ether_type = 0x8808;  // frames of this type are consumed by RX
  SchedulerConfig scheduler;
  PortFlowControl flow_control;
};

struct FibEntry {
  wire::MacAddress mac;
  int port = 0;  // index into SwitchConfig::ports
};

enum class TaskKind : uint8_t { kRx, kFwd, kTx };

struct TaskRef {
  TaskKind kind = TaskKind::kFwd;
  int port = -1;  // for kRx and kTx
  friend bool operator==(const TaskRef&, const TaskRef&) = default;
};

struct EalConfig {
  std::vector<std::string> args;
  std::string cpus;  // CPU list for the lcores ("0-3,8"); empty: the process's affinity
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
  bool ingress_fair_egress = false;      // [switch] egress_service = "ingress-fair"
  std::optional<TaggerSettings> tagger;  // [tagger]
  std::optional<MetricsConfig> metrics;  // [metrics]: Prometheus exposer
  std::optional<TraceConfig> trace;      // [trace]: high-resolution occupancy trace
  std::vector<FibEntry> fib;
  uint32_t mbufs = 65535;
  uint32_t mbuf_cache = 256;
  uint32_t fwd_ring_packets = 4096;       // each RX → FWD ring
  uint32_t egress_queue_packets = 16384;  // each (port, queue) ring
  std::string layout_name = "compact";
  std::vector<std::vector<TaskRef>> lcores;  // worker lcore i runs lcores[i], in order
  // Not a key: set by the lab, whose ring ports pass the sender's mbufs on, so the switch's
  // own pool holds only flood copies (no warning that it is smaller than the buffer).
  bool mbufs_from_links = false;

  int port_index(std::string_view name) const;
};

// The same from a parsed table (the lab builds one per switch from its scenario); values
// keep the places they were parsed from, which `file` names unless they came from elsewhere.
SwitchConfig read_switch_config(const toml::table& root, const std::string& file);
// Reads and validates `path`. Throws ConfigError with every problem found.
SwitchConfig load_switch_config(const std::string& path);
// The same from text; `file` names it in messages.
SwitchConfig parse_switch_config(std::string_view text, const std::string& file);

// The GFC testbed layout (RX and TX of each port on their own lcores, one FWD lcore: 2N+1
// lcores for N ports) and the compact one (every task on one lcore).
std::vector<std::vector<TaskRef>> testbed_layout(int ports);
std::vector<std::vector<TaskRef>> compact_layout(int ports);

std::string task_name(const TaskRef& task, const SwitchConfig& config);

}  // namespace fcswitch::config

#include "config/pabo_config.h"

#include <fmt/format.h>

#include "config/queue_list.h"

namespace fcswitch::config {

namespace {

// A sub-queue holds at most this many packets (a DPDK ring of 2^20 slots).
constexpr int64_t kMaxCapacityPackets = (1 << 20) - 1;
constexpr uint64_t kMaxCapacityBytes = uint64_t{1} << 34;

// Which of the other mechanisms a PABO priority cannot share (PABO replaces flow control on
// its priority: the paper runs it without PFC, §II); empty when none.
std::string conflict(const SwitchConfig& config, int priority) {
  if (has_priority(config.lossless_priorities, priority))
    return "a lossless priority ([switch] lossless_priorities): flow control protects those, "
           "PABO's capacities admit its own";
  for (const PortConfig& port : config.ports)
    if (const auto* engine = port.flow_control.priorities[priority].engine)
      return fmt::format("a priority with the flow-control engine \"{}\" (port {})", engine->name,
                         port.name);
  return {};
}

}  // namespace

void read_pabo(TableReader& root, SwitchConfig& config) {
  const toml::table* table = root.table("pabo");
  if (!table) return;
  TableReader reader(*table, "pabo", root.problems());
  PaboParams& pabo = config.pabo;
  pabo::BounceSettings& s = pabo.settings;
  if (auto b = reader.boolean("bounce")) s.bounce = *b;
  if (auto theta = reader.number("theta", 0, 1)) {
    if (*theta >= 1)
      reader.refuse("theta", "a threshold in [0, 1) (PABO Eq. 4: P = 1 only at a full queue)",
                    fmt::format("{}", *theta));
    else
      s.theta = *theta;
  }
  if (auto lambda = reader.number("lambda", 0, 1e6)) s.lambda = *lambda;
  if (auto n = reader.integer("normal_capacity", 1, kMaxCapacityPackets))
    s.normal_capacity_packets = static_cast<uint32_t>(*n);
  if (auto n = reader.integer("bounce_capacity", 1, kMaxCapacityPackets))
    s.bounce_capacity_packets = static_cast<uint32_t>(*n);
  if (auto b = reader.bytes("normal_capacity_bytes", 1, kMaxCapacityBytes))
    s.normal_capacity_bytes = *b;
  if (auto b = reader.bytes("bounce_capacity_bytes", 1, kMaxCapacityBytes))
    s.bounce_capacity_bytes = *b;
  if (auto n = reader.integer("guard", 0, kMaxCapacityPackets)) {
    if (s.bounce &&
        static_cast<uint64_t>(*n) >= std::min(s.normal_capacity_packets, s.bounce_capacity_packets))
      reader.refuse("guard", "fewer packets than either capacity (else u_q is always 1)",
                    fmt::format("{} with capacities {} and {}", *n, s.normal_capacity_packets,
                                s.bounce_capacity_packets));
    else
      s.guard_packets = static_cast<uint32_t>(*n);
  }
  if (auto n = reader.integer("seed", 0, INT64_MAX)) pabo.seed = static_cast<uint64_t>(*n);

  const auto priorities = read_queue_list(reader, "priorities", false);
  if (!priorities) {
    reader.refuse("priorities", "the priorities that bounce, e.g. [0]", "none");
  } else if (*priorities == 0) {
    reader.refuse("priorities", "at least one priority (remove [pabo] for none)", "[]");
  } else {
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      if (!(*priorities >> prio & 1u)) continue;
      if (const std::string why = conflict(config, prio); !why.empty())
        reader.refuse("priorities", "priorities PABO runs alone on",
                      fmt::format("{}: {}", prio, why));
    }
    if (config.tagger)
      reader.refuse("priorities", "no [tagger]: a bounced packet goes against its tags' order",
                    "[tagger] is set");
    if (config.queueing != Queueing::kOutput)
      reader.refuse("priorities",
                    "[switch] queueing = \"output\": PABO decides on its output queues",
                    "another queueing");
    // Each egress ring must hold a full normal sub-queue (a ring of N slots holds N − 1).
    if (s.normal_capacity_packets >= config.egress_queue_packets)
      reader.refuse("normal_capacity",
                    fmt::format("fewer packets than [switch] egress_queue_packets ({})",
                                config.egress_queue_packets),
                    fmt::format("{}", s.normal_capacity_packets));
    pabo.priorities = static_cast<PriorityMask>(*priorities);
  }
  reader.reject_unknown_keys();
}

}  // namespace fcswitch::config

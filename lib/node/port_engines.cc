#include "node/port_engines.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "core/units.h"
#include "shaping/rate_limiter.h"

namespace fcswitch {

fc::EngineContext port_engine_context(const config::PortConfig& port, uint64_t buffer_bytes,
                                      const TickRate& ticks) {
  fc::EngineContext context;
  context.link = port.link_params(buffer_bytes);
  context.ticks = ticks;
  context.stage_opcode = port.flow_control.stage_opcode;
  context.framing = shaping::WireFraming{port.wire_overhead_bytes, kEthernetMinFrameBytes};
  context.limiter_catch_up_ticks = ticks.from_ns(port.flow_control.limiter_catch_up_ns);
  context.limiter_profile = std::make_shared<const shaping::RateLimiterProfile>(
      context.link.rate_bps, ticks, context.framing, context.limiter_catch_up_ticks);
  return context;
}

std::array<fc::EngineInstance, kNumPriorities> make_port_engines(const config::PortConfig& port,
                                                                 const fc::EngineContext& context,
                                                                 std::string_view owner) {
  std::array<fc::EngineInstance, kNumPriorities> engines;
  fc::EngineContext for_priority = context;
  for (int prio = 0; prio < kNumPriorities; ++prio) {
    const config::PriorityFlowControl& chosen = port.flow_control.priorities[prio];
    if (!chosen.engine) continue;
    for_priority.priority = prio;
    engines[prio] = chosen.engine->make(*chosen.params, for_priority);
    spdlog::info("{} port {} priority {}: flow control {}", owner, port.name, prio,
                 chosen.engine->name);
  }
  return engines;
}

TxFlowControl make_tx_flow_control(const config::PortConfig& port, uint64_t buffer_bytes,
                                   const TickRate& ticks, wire::MacAddress mac,
                                   rte_mempool* control_pool, std::string_view owner) {
  TxFlowControl flow;
  flow.watchdog = port.flow_control.watchdog;
  flow.ticks = ticks;
  flow.mac = mac;
  flow.control_ether_type = port.control_ether_type;
  flow.control_pool = control_pool;
  flow.stage_opcode = port.flow_control.stage_opcode;
  const fc::EngineContext context = port_engine_context(port, buffer_bytes, ticks);
  if (port.emulate_wire) {
    // The device has no line rate of its own (as the lab's ring links): the pacer alone
    // serialises the port, each frame starting its wire time at that rate after the last. A
    // NIC's wire goes on sending what TX committed to its ring while the CPU is away, so the
    // pacer makes up wire time a late poll lost, up to the port's committed frames at full
    // size (the burst GFC's room below B_m holds), or limiter_catch_up where that is longer.
    // With limiter_catch_up alone, processes that wait milliseconds for a CPU ran their
    // links at 87 % of the rate.
    const uint64_t wire_bps = port.rate_limit_bps ? port.rate_limit_bps : port.rate_bps;
    const uint64_t ring_ticks =
        port.committed_frames() *
        ticks.for_bits(context.framing.wire_bits(port.max_frame_bytes()), wire_bps);
    flow.pacer.emplace(shaping::kNoLineRate, wire_bps, ticks, context.framing,
                       std::max(context.limiter_catch_up_ticks, ring_ticks));
    spdlog::info("{} port {}: data paced at {} b/s (emulate_wire)", owner, port.name, wire_bps);
  } else if (port.rate_limit_bps) {
    flow.pacer.emplace(port.rate_bps, port.rate_limit_bps, ticks, context.framing,
                       context.limiter_catch_up_ticks);
    spdlog::info("{} port {}: paced at {} b/s of {} b/s", owner, port.name, port.rate_limit_bps,
                 port.rate_bps);
  }
  flow.engines = make_port_engines(port, context, owner);
  // Quiet after a pause (ResponseTimeMeter): the frames TX may commit past its gate at once
  // (PortConfig::committed_frames: a burst, at most its ring, and the one on the wire), full
  // size (MTU 1500), at the port's rate; four at least. An upstream's software TX hands frames
  // over a burst at a time; over a device with no wire of its own (memif) they arrive that
  // way, a poll apart, and a shorter quiet took the gap between two bursts for the upstream
  // having stopped: the meter then saw nothing after the decision and took no sample at all.
  // A lab link, whose ring is a few frames, keeps the few frames' quiet it had.
  constexpr uint32_t kFullFrameBytes = 1500 + kEthernetHeaderBytes;
  const uint32_t quiet_frames = std::max<uint32_t>(4, port.committed_frames());
  flow.pause_quiet_ticks =
      quiet_frames * ticks.for_bits(context.framing.wire_bits(kFullFrameBytes), port.rate_bps);
  return flow;
}

}  // namespace fcswitch

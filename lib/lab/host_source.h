#pragma once
// The traffic generators of a lab host: its flows, each a stream of stamped frames
// (flow_frame.h) put into the egress queue of its priority on the host's one port, where the
// port's TX task and its flow-control engines take them — as an RDMA NIC's send queues feed
// its port. A queue is kept only a little ahead of TX (kQueueAheadPackets), so a paused or
// rate-limited priority holds its flows back instead of piling frames up in the host.
//
// A flow sends from start to stop (or until `size` is sent), at its own rate or as fast as
// the queue takes frames, and in an on-off pattern if it has one. Packets enter the queue
// charged as if they had arrived on the host's port 1 (its applications), so the port's own
// ingress occupancy — what the host's feedback generators watch — is the traffic it receives.

#include <rte_mempool.h>

#include <memory>
#include <optional>
#include <vector>

#include "core/owned_counter.h"
#include "core/task.h"
#include "core/tick_rate.h"
#include "lab/lab_scenario.h"
#include "shaping/rate_limiter.h"
#include "switch/switch_state.h"

namespace fcswitch::lab {

struct FlowSent {
  OwnedCounter packets;
  OwnedCounter bytes;
  OwnedGauge done_ticks;  // when the last frame of a sized flow was queued; 0 until then
};

class HostSource : public Task {
 public:
  static constexpr unsigned kQueueAheadPackets = 64;
  static constexpr int kApplicationPort = 1;  // SwitchState port the flows' packets "arrive" on
  static constexpr int kNicPort = 0;

  HostSource(std::string name, SwitchState& state, rte_mempool* pool, const TickRate& ticks,
             const shaping::WireFraming& framing);
  ~HostSource() override;

  // `frame`: the flow's template (make_flow_frame); `sent` lives as long as this source.
  void add_flow(const FlowSpec& flow, std::vector<uint8_t> frame, FlowSent& sent);
  // The earliest time a flow starts, turns on or may send again by its own rate; kNeverTicks
  // when only TX taking frames can let a flow go on.
  uint64_t next_event_ticks(uint64_t now_ticks) const;
  uint64_t alloc_failures() const { return alloc_failures_.read(); }
  // As FwdTask::align_rotation: the flow served first, as if polled `poll_index` times.
  void align_rotation(uint64_t poll_index) {
    if (!flows_.empty()) next_flow_ = static_cast<size_t>(poll_index % flows_.size());
  }

 protected:
  bool poll(uint64_t now_ticks) override;

 private:
  struct Flow {
    FlowSpec spec;
    uint64_t start_ticks, stop_ticks, on_ticks, period_ticks;
    std::vector<uint8_t> frame;
    std::optional<shaping::RateLimiter> pacer;
    uint64_t sequence = 0;
    uint64_t bytes = 0;
    FlowSent* sent;
    uint64_t burst_period = 0;  // with a burst: the on-off period the count below is of
    uint64_t burst_sent = 0;
  };
  bool finished(const Flow& flow, uint64_t now) const;
  // When the flow may next send by its schedule alone (start, on phase, own rate); `now` if
  // it may now.
  uint64_t opens_at(const Flow& flow, uint64_t now) const;
  bool send_one(Flow& flow, uint64_t now);

  SwitchState& state_;
  rte_mempool* pool_;
  TickRate ticks_;
  shaping::WireFraming framing_;
  std::vector<Flow> flows_;
  size_t next_flow_ = 0;
  OwnedCounter alloc_failures_;
};

}  // namespace fcswitch::lab

#pragma once
// TX of one port: the egress scheduler picks among the port's queues (strict priority, then
// DWRR), the burst goes to the NIC, and each packet the NIC accepts releases the buffer it
// was charged to. What the NIC does not accept waits, in order, for the next poll: a
// lossless packet is never dropped because a TX ring was momentarily full.

#include <array>
#include <cstdint>

#include "core/owned_counter.h"
#include "core/packet_meta.h"
#include "core/traffic_class.h"
#include "switch/burst.h"
#include "switch/egress_scheduler.h"
#include "switch/switch_state.h"
#include "switch/task.h"

struct rte_mbuf;

namespace fcswitch {

class TxTask : public Task {
 public:
  TxTask(std::string name, int port, uint16_t port_id, const SchedulerConfig& scheduler,
         SwitchState& state);

  uint64_t packets(int queue) const { return packets_[queue].read(); }
  uint64_t bytes(int queue) const { return bytes_[queue].read(); }
  // Packets taken from the egress rings and not yet accepted by the NIC.
  uint64_t held() const { return held_.read(); }

  // Control thread, after the lcores have stopped: hands back what the task holds.
  unsigned take_held(rte_mbuf** out, unsigned max);

 protected:
  bool poll(uint64_t now_tsc) override;

 private:
  // The head of each egress ring, pulled in bursts so the scheduler can see packet lengths.
  struct QueueHead {
    uint16_t first = 0;
    uint16_t count = 0;
    rte_mbuf* pkts[kBurstSize];
  };

  bool refill(int queue);
  uint32_t head_length(int queue) const;  // of the packet at the head of a backlogged queue
  void release(const PacketMeta& meta);
  void publish_held();

  int port_;
  uint16_t port_id_;
  SwitchState& state_;
  EgressScheduler scheduler_;
  std::array<QueueHead, kNumEgressQueues> heads_;
  QueueMask backlogged_ = 0;  // queues whose QueueHead holds packets
  // Chosen by the scheduler, not yet accepted by the NIC; with what each will release.
  rte_mbuf* pending_[kBurstSize];
  PacketMeta pending_meta_[kBurstSize];
  uint16_t pending_count_ = 0;

  std::array<OwnedCounter, kNumEgressQueues> packets_;
  std::array<OwnedCounter, kNumEgressQueues> bytes_;
  OwnedGauge held_;
};

}  // namespace fcswitch

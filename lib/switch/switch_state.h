#pragma once
// What the tasks of one switch share. Every field has one writer, named beside it; readers
// use the acquire loads of OwnedCounter or the rte_ring API.

#include <array>
#include <atomic>
#include <memory>
#include <vector>

#include "core/owned_counter.h"
#include "core/traffic_class.h"
#include "dpdk/mbuf_meta.h"
#include "dpdk/ring.h"
#include "switch/charge_release_counters.h"

namespace fcswitch {

struct SwitchState {
  SwitchState(int ports, const std::string& name_prefix, unsigned fwd_ring_packets,
              unsigned egress_queue_packets);

  int ports;
  dpdk::MbufMeta meta;

  // [rx port]: RX(p) produces, FWD consumes.
  std::vector<dpdk::RingPtr> fwd_rings;
  // [egress port][queue]: FWD produces, TX(port) consumes. These are the egress queues.
  std::vector<std::array<dpdk::RingPtr, kNumEgressQueues>> egress_rings;

  // Per (ingress port, priority), slot port * 8 + priority: the ingress queue length that
  // PFC/GFC watch. Charged by FWD on admission; released by TX(egress port), releaser
  // index = egress port, when the packet leaves the switch.
  ChargeReleaseCounters ingress_occupancy;
  // Slot 0: bytes of lossy classes in the buffer. Charged by FWD, released by TX(port).
  ChargeReleaseCounters lossy_pool;
  // [egress port], slot queue: bytes waiting. Charged by FWD, released by TX(port) (releaser 0).
  std::vector<std::unique_ptr<ChargeReleaseCounters>> egress_depth;

  // [port]: flow-control messages (fc::ControlMessage) that RX(p) decoded for the egress
  // gates of port p. RX(p) produces, TX(p) consumes.
  std::vector<dpdk::RingPtr> control_rings;
  // Per (ingress port, priority), slot as above: 64-byte blocks received, CBFC's ABR. Written
  // by FWD only: it counts each packet it classifies and sets the count to the upstream's
  // FCTBS when a credit frame, passed in order with the data, says so.
  std::unique_ptr<OwnedCounter[]> received_blocks;

  // Written by the control thread at shutdown; RX tasks stop receiving when set.
  std::atomic<bool> rx_stopped{false};

  static int occupancy_slot(int port, int priority) { return port * kNumPriorities + priority; }
};

}  // namespace fcswitch

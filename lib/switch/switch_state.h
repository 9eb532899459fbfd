#pragma once
// What the tasks of one switch share. Every field has one writer, named beside it; readers
// use the acquire loads of OwnedCounter or the rte_ring API.

#include <array>
#include <atomic>
#include <memory>
#include <vector>

#include "core/owned_counter.h"
#include "core/packet_meta.h"
#include "core/traffic_class.h"
#include "dpdk/mbuf_meta.h"
#include "dpdk/ring.h"
#include "switch/charge_release_counters.h"
#include "switch/feedback_wake_bands.h"
#include "switch/port_wake_set.h"
#include "switch/queued_from_counters.h"
#include "wire/credit_frame.h"

namespace fcswitch {

struct SwitchState {
  // `ingress_lanes`: each egress queue keeps one lane (ring) per ingress port, served in
  // turn, instead of one FIFO (config: [switch] queueing = "input-fair").
  // `pabo_queues`: the queues with a PABO bounce sub-queue of `bounce_queue_packets` (a power
  // of two) on every port.
  // `one_thread`: every task of the switch runs on one thread (one lcore, the lab). Then the
  // TX tasks release into one row of the counters they share (ingress occupancy, lossy pool),
  // and a reader of a count loads one word instead of one per port (16 cache lines a read at
  // fat-tree k = 16).
  // `device_ports`: the ports that have a device (RX and TX tasks), 0 … device_ports − 1; the
  // others (a lab host's application port, where its own frames enter its buffer) have counters
  // but no rings: null FWD and control rings, no egress lanes, no bounce rings. −1: every port.
  // `egress_rings_at_first_use`: an egress lane's ring is made when a producer first asks for
  // it (egress_ring_to_fill), not here. Only where one thread is producer and consumer (the
  // lab): a consumer then sees a null lane, which holds nothing. A lab switch's ring takes a
  // page at least (its header, its first slots), and most queues of a network carry nothing:
  // at fat-tree k = 16, 8 of the 9 of each of 6 144 ports.
  SwitchState(int ports, const std::string& name_prefix, unsigned fwd_ring_packets,
              unsigned egress_queue_packets, bool ingress_lanes = false,
              PriorityMask pabo_queues = 0, unsigned bounce_queue_packets = 0,
              bool one_thread = false, int device_ports = -1,
              bool egress_rings_at_first_use = false);

  int ports;
  // Every ring's producer, consumer and counter are one thread (SwitchConfig's
  // rings_of_one_thread, the lab): a consumer that empties a ring rewinds it
  // (dpdk::rewind_if_empty), so that a ring touches only as many slots as it ever held at once.
  bool rewind_empty_rings = false;
  // A consumer's call after it took from `ring`: where rings rewind, an emptied one does.
  void rewind_if_emptied(rte_ring* ring) const {
    if (rewind_empty_rings) dpdk::rewind_if_empty(ring);
  }
  dpdk::MbufMeta meta;

  // [rx port]: RX(p) produces, FWD consumes.
  std::vector<dpdk::RingPtr> fwd_rings;
  // [egress port][queue][lane]: FWD produces, TX(port) consumes. These are the egress queues:
  // one FIFO lane each, or one lane per ingress port that TX serves round robin, so that every
  // input gets its turn at the egress whatever the queue holds (queueing = "input-fair").
  // With queueing = "input-hol" they are a short output stage behind FWD's input FIFOs
  // (switch/fwd/input_queues.h), as test-pipeline's TX rings. A lane not used yet is null
  // where rings are made at first use.
  std::vector<std::array<std::vector<dpdk::RingPtr>, kNumEgressQueues>> egress_rings;
  int lanes = 1;
  // A consumer's view: null for a lane that was never filled.
  rte_ring* egress_ring(int port, int queue, int ingress_port) const {
    return egress_rings[port][queue][lane_of(ingress_port)].get();
  }
  // A producer's: the lane's ring, made now if it is the first to ask.
  rte_ring* egress_ring_to_fill(int port, int queue, int ingress_port) {
    dpdk::RingPtr& ring = egress_rings[port][queue][lane_of(ingress_port)];
    if (!ring) [[unlikely]]
      make_egress_ring(port, queue, lane_of(ingress_port));
    return ring.get();
  }
  int lane_of(int ingress_port) const { return lanes == 1 ? 0 : ingress_port; }

  // [egress port]: packets ever put in the port's egress or bounce rings, counted by their one
  // producer (FWD, a lab host's thread) after each enqueue. TX(port) tells by it that nothing
  // arrived since it last looked (TxTask's quiet polls): every enqueue into those rings adds.
  std::unique_ptr<OwnedCounter[]> egress_enqueued;
  // [egress port]: packets ever taken from the port's egress or bounce rings, counted by
  // TX(port). FWD tells by it that no egress ring has more room than when it last looked (an
  // input-queued switch whose FIFO heads found every ring full).
  std::unique_ptr<OwnedCounter[]> egress_dequeued;

  // [egress port][queue]: PABO's bounce sub-queue (PABO §II-E), which TX(port) serves before
  // the queue's normal lanes; null where the queue has none. FWD produces, TX(port) consumes.
  std::vector<std::array<dpdk::RingPtr, kNumEgressQueues>> bounce_rings;
  PriorityMask pabo_queues = 0;
  // [egress port], slot pabo_slot(queue, sub-queue, bytes): packets and bytes waiting in each
  // PABO sub-queue, the u_q of Eq. 4. Charged by FWD, released by TX(port) (releaser 0).
  std::vector<std::unique_ptr<ChargeReleaseCounters>> pabo_depth;
  static int pabo_slot(int queue, bool bounce_subqueue, bool bytes) {
    return queue * 4 + (bounce_subqueue ? 2 : 0) + (bytes ? 1 : 0);
  }

  // Per (ingress port, priority), slot port * 8 + priority: the ingress queue length that
  // PFC/GFC watch. Charged by FWD on admission; released by TX(egress port), releaser
  // index = egress port (one row for all with `one_thread`), when the packet leaves.
  ChargeReleaseCounters ingress_occupancy;
  // Slot 0: bytes of lossy classes in the buffer. Charged by FWD, released by TX(port).
  ChargeReleaseCounters lossy_pool;
  // [egress port], slot queue: bytes waiting. Charged by FWD, released by TX(port) (releaser 0).
  std::vector<std::unique_ptr<ChargeReleaseCounters>> egress_depth;
  // Bytes waiting in each egress queue by the ingress they arrived on: the edges of the lab's
  // deadlock wait-for graph. Null unless count_queued_from() was called (the lab's switches):
  // nothing else reads them, and each packet would pay a charge and a release.
  std::unique_ptr<QueuedFromCounters> queued_from;
  void count_queued_from() { queued_from = std::make_unique<QueuedFromCounters>(ports); }

  // [port]: flow-control messages (fc::ControlMessage) that RX(p) decoded for the egress
  // gates of port p. RX(p) produces, TX(p) consumes.
  std::vector<dpdk::RingPtr> control_rings;
  // [port]: messages RX(p) ever put in control_rings[p], counted after each enqueue, each
  // port's on a cache line of its own (RX tasks of different ports may run on different
  // lcores). TX(p) tells by it whether its ring holds any: one line read a poll where the
  // ring's emptiness reads two (its producer's and its consumer's tails).
  struct alignas(64) PostedCount {
    OwnedCounter messages;
  };
  std::unique_ptr<PostedCount[]> control_posted;
  // [port]: Pyrrha's messages (pyrrha::Message) that FWD's congestion-root table sends out of
  // port p (switch/fwd/pyrrha_queues.h). FWD produces, TX(p) consumes and frames them ahead of
  // data (switch/pyrrha_framer.h). Empty unless the switch runs Pyrrha (add_pyrrha_rings).
  std::vector<dpdk::RingPtr> pyrrha_rings;
  void add_pyrrha_rings(const std::string& name_prefix);

  // Per (ingress port, priority), slot as above: 64-byte blocks received, CBFC's ABR. Written
  // by FWD only: it counts each packet it classifies and sets the count to the upstream's
  // FCTBS when a credit frame, passed in order with the data, says so.
  std::unique_ptr<OwnedCounter[]> received_blocks;
  // Per (ingress port, priority), slot as above: when FWD took the latest data frame of it
  // (its poll's time), for the τ measured at that input (fc/response_time_meter.h).
  std::unique_ptr<OwnedGauge[]> last_arrival_ticks;

  // Written by the control thread at shutdown; RX tasks stop receiving when set.
  std::atomic<bool> rx_stopped{false};
  // Every frame the node's own tasks could not allocate: the TX tasks' control frames
  // (TxTask::control_alloc_failures), a lab host's data frames. Any thread, relaxed: bumped
  // only on that rare path, so that the lab's schedule reads one word a node to see whether a
  // node waits for a pool (lab/lab_schedule.h).
  std::atomic<uint64_t> alloc_failures{0};
  // For a caller that runs all of the switch's tasks on one thread and enables them (the lab's
  // schedule), the ports with new input (switch/port_wake_set.h):
  //  - tx_wakes, for TX(p): what a quiet TX poll (TxTask::poll) reads. FWD marks the egress
  //    rings it fills; a charge (FWD) or a release (TX(q)) of ingress occupancy marks the
  //    input port where its generators would act on it, and a burst where they may act on
  //    any change (feedback_bands); RX(p) marks a control message. The caller marks room,
  //    timers and events.
  //  - fwd_inputs, for FWD: RX(p) marks what it passes on; FWD clears an input it emptied.
  PortWakeSet tx_wakes;
  PortWakeSet fwd_inputs;
  // With tx_wakes: what TX(p)'s generators would act on (switch/feedback_wake_bands.h).
  // Written by TX(p), read by whoever charges or releases; one thread, as tx_wakes.
  FeedbackWakeBands feedback_bands;

  static int occupancy_slot(int port, int priority) { return port * kNumPriorities + priority; }
  // A packet enters the buffer on its way to `egress_port` (FWD, or a lab host's source):
  // every count it will release when it leaves (`packets` of them, when `meta` sums a run's
  // bytes).
  void charge(const PacketMeta& meta, int egress_port, uint32_t packets = 1) {
    const int slot = occupancy_slot(meta.ingress_port, meta.priority);
    ingress_occupancy.charge(slot, meta.charged_bytes);
    wake_feedback_if_news(meta.ingress_port, slot);
    if (meta.lossy) lossy_pool.charge(0, meta.charged_bytes);
    egress_depth[egress_port]->charge(meta.egress_queue, meta.charged_bytes);
    if (queued_from)
      queued_from->charge(egress_port, meta.egress_queue, meta.ingress_port, meta.priority,
                          meta.charged_bytes);
    // Out of line, so that charge() stays small enough to inline into FWD's loop.
    if (meta.pabo) [[unlikely]]
      charge_pabo(meta, egress_port, packets);
  }
  void charge_pabo(const PacketMeta& meta, int egress_port, uint32_t packets);
  // CBFC's ABR resynchronisation (IBA): ABR := FCTBS for each priority the credit frame
  // carries, at the place the frame falls among the packets of `in_port`. The consumer of
  // `in_port`'s packets only (FWD, a lab host's sink).
  void resynchronise(int in_port, const wire::CreditFrame& frame) {
    for (int i = 0; i < kNumPriorities; ++i)
      if (has_priority(frame.entry_mask, i))
        received_blocks[occupancy_slot(in_port, i)].set(frame.entry[i].fctbs);
  }
  // It left by `egress_port` (`packets` of them, when `meta` sums a run's bytes):
  // TX(egress_port) only.
  void release(const PacketMeta& meta, int egress_port, uint32_t packets = 1) {
    const int slot = occupancy_slot(meta.ingress_port, meta.priority);
    ingress_occupancy.release(egress_port, slot, meta.charged_bytes);
    if (meta.lossy) lossy_pool.release(egress_port, 0, meta.charged_bytes);
    egress_depth[egress_port]->release(0, meta.egress_queue, meta.charged_bytes);
    if (queued_from)
      queued_from->release(egress_port, meta.egress_queue, meta.ingress_port, meta.priority,
                           meta.charged_bytes);
    wake_feedback_if_news(meta.ingress_port, slot);
    if (meta.pabo) [[unlikely]]
      release_pabo(meta, egress_port, packets);
  }
  void release_pabo(const PacketMeta& meta, int egress_port, uint32_t packets);
  // TX(in_port)'s generators watch the occupancy of (in_port, priority): a change they would
  // act on is input for that TX task.
  void wake_feedback_if_news(int in_port, int slot) {
    if (tx_wakes.enabled() && feedback_bands.leaves_band(slot, ingress_occupancy.value(slot)))
      tx_wakes.mark(in_port);
  }

 private:
  void make_egress_ring(int port, int queue, int lane);
  std::string name_prefix_;
  unsigned egress_queue_packets_;
};

}  // namespace fcswitch

#pragma once
// The receiving side of a lab host: takes what the host port's RX task hands on (as FWD
// would in a switch), accounts each flow's frames — bytes, sequence gaps (loss), reordering,
// first and last arrival — and counts the 64-byte blocks received per priority, so the host
// port's feedback generators see the ABR a CBFC receiver needs (credit frames from the
// switch resynchronise it, in order with the data). Pyrrha's messages from the switch go to
// the host's paused roots (pyrrha/host_root_pauses.h), which its source reads: never data.

#include <rte_mempool.h>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/owned_counter.h"
#include "core/task.h"
#include "core/tick_rate.h"
#include "pyrrha/host_root_pauses.h"
#include "scenario/lab_scenario.h"
#include "switch/priority_classifier.h"
#include "switch/switch_state.h"
#include "traffic/flow_frame.h"
#include "traffic/reorder_density.h"
#include "wire/frame_header.h"
#include "wire/mac_address.h"
#include "wire/pabo_shim.h"

struct rte_mbuf;

namespace fcswitch::lab {

class HostSource;

// PABO's statistics of a flow's delivered frames (PABO §III "EtherFrame", Table I, Fig. 7b).
struct FlowBounces {
  static constexpr int kMaxDistances = 4;  // 0, 1, 2, 3 or more
  static constexpr int kMaxCounts = 32;    // n_p 0 … 30, 31 or more
  OwnedCounter bounced;                    // delivered with n_p > 0
  std::array<OwnedCounter, kMaxDistances> max_distance;
  std::array<OwnedCounter, kMaxCounts> bounce_count;
};

struct FlowReceived {
  FlowBounces bounces;
  OwnedCounter packets;
  OwnedCounter bytes;
  OwnedCounter missing;    // sequence numbers skipped: frames lost on the way
  OwnedCounter reordered;  // frames older than one already received
  // Reorder Density (traffic/reorder_density.h, PABO Fig. 12): distinct frames received out of
  // their send order (d ≠ 0), the largest |d|, and how many had each |d| bucket.
  OwnedCounter displaced;
  OwnedGauge max_displacement;
  std::array<OwnedCounter, kDisplacementBuckets> displacement;
  OwnedGauge first_ticks;  // arrival of the first frame (+1, so 0 means none yet)
  OwnedGauge last_ticks;
  // Per-packet delay (PABO Fig. 13) of the distinct frames that carry their send time (frames
  // of at least 66 bytes, lab/flow_frame.h): from entering the source's NIC queue to the sink.
  OwnedCounter delay_samples;
  OwnedCounter delay_ticks_sum;
  OwnedGauge delay_ticks_max;
  // Transports: copies of frames already received (retransmissions), frames that came
  // CE-marked, and the ACKs and CNPs the sink sent back.
  OwnedCounter duplicates;
  OwnedCounter ce_marked;
  OwnedCounter acks_sent;
  OwnedCounter cnps_sent;
  // The destination's sink's own: one past the highest sequence number received.
  uint64_t next_sequence = 0;
  // A closed loop's flow (lab/closed_loops.h): its size, until the sink has received that many
  // distinct bytes and told the lab (HostSink::set_on_complete); 0: not watched.
  uint64_t complete_at_bytes = 0;
};

// The lab's per-flow records, by flow id. A deque: the flows a closed loop starts during the
// run are added at the end while the sinks hold references to the others.
using FlowReceivedRecords = std::deque<FlowReceived>;

class HostSink : public Task {
 public:
  // `flows`: the lab's per-flow records, indexed by flow id; the sink writes those of the
  // flows sent to it.
  // `bounce_capacity_packets`: PABO, the host's bounce queue (SwitchState::bounce_rings).
  HostSink(std::string name, wire::MacAddress mac, SwitchState& state, const PriorityMaps& maps,
           FlowReceivedRecords& flows, uint32_t bounce_capacity_packets = 0);

  ~HostSink() override;
  // A flow sent to this host over a transport (lab/flow_transport.h): the sink keeps its
  // receiver — cumulative ACKs, one per frame, for a window or TIMELY (echoing the frame's send
  // time); one CNP per interval at most when frames come CE-marked, for DCQCN — and sends what
  // it answers from `pool`.
  void add_transport_flow(const FlowSpec& flow, const FlowFrameSpec& frames,
                          const TransportSettings& transport, rte_mempool* pool,
                          const TickRate& ticks);
  // A flow sent to this host over `transport` by a sender this host does not know (fchost: the
  // sender is another process, [[receive]]): its receiver is made from the flow's first frame,
  // which gives the addresses, DSCP and frame length its ACKs and CNPs need.
  void expect_transport_flow(uint32_t flow, FlowTransport transport,
                             const TransportSettings& settings, rte_mempool* pool,
                             const TickRate& ticks);
  // Called when a watched flow (FlowReceived::complete_at_bytes) has come whole: its id and
  // the time. It may add flows to the records.
  using FlowCompleted = std::function<void(uint32_t flow, uint64_t now_ticks)>;
  void set_on_complete(FlowCompleted on_complete) { on_complete_ = std::move(on_complete); }
  // Where the ACKs and CNPs for this host's own flows go.
  void set_source(HostSource* source) { source_ = source; }
  // Pyrrha (the host's config has [pyrrha]): the messages about `priority`, the class Pyrrha
  // controls, go to `pauses`. Without it they are counted and dropped.
  void set_root_pauses(pyrrha::HostRootPauses* pauses, int priority) {
    root_pauses_ = pauses;
    pyrrha_priority_ = priority;
  }

  // Not a lab flow's frame for this host (another host's, flooded to us): dropped.
  uint64_t foreign_frames() const { return foreign_.read(); }
  // ACKs and CNPs: sent by this sink, and taken for this host's flows.
  uint64_t transport_frames_sent() const { return transport_sent_.read(); }
  uint64_t transport_frames_received() const { return transport_received_.read(); }
  // ACKs and CNPs the host's egress queue had no room for (or no mbuf): not sent.
  uint64_t transport_frames_refused() const { return transport_refused_.read(); }
  uint64_t credit_frames() const { return credit_frames_.read(); }
  // Pyrrha's PAUSE, RESUME, MERGE and DEALLOC frames RX passed on (taken or not).
  uint64_t pyrrha_frames() const { return pyrrha_frames_.read(); }
  // PABO: bounced frames of its own flows that came back and were sent again (PABO §III), and
  // those its full bounce queue could not take.
  uint64_t resent_bounced() const { return resent_.read(); }
  uint64_t bounce_queue_full() const { return bounce_full_.read(); }

 protected:
  bool poll(uint64_t now_ticks) override;

 private:
  // `length` bytes of the frame are at `data` (a lab frame's headers only:
  // lab/lab_frame_pool.h); `wire_bytes` is its length on the link.
  void receive(const uint8_t* data, uint32_t length, uint32_t wire_bytes, uint64_t now,
               const wire::PaboShim* shim = nullptr);
  // A bounced frame of one of our flows came back: sent again from the bounce queue (true:
  // the mbuf is taken), or refused when that is full.
  bool resend_bounced(rte_mbuf* m, const wire::FrameHeader& header);
  struct Receiver;
  std::unique_ptr<Receiver> make_receiver(FlowTransport transport, const FlowFrameSpec& frames,
                                          const TransportSettings& settings,
                                          const TickRate& ticks) const;
  // The receiver of an expected flow (expect_transport_flow), made from this, its first frame;
  // null when the flow is not expected.
  Receiver* receiver_from_first_frame(const uint8_t* data, const wire::FrameHeader& header,
                                      uint32_t flow, uint32_t wire_bytes);
  // A Pyrrha message to the paused roots, if it is about their class.
  void take_pyrrha_frame(const uint8_t* data, uint32_t length);
  // An ACK or CNP for this host's flows: handed to the source (true), or not one (false).
  bool take_transport_frame(const uint8_t* data, uint32_t length, uint64_t now);
  // The transport's answer to a data frame of `receiver`'s flow (`fresh`: its first copy).
  void answer(Receiver& receiver, const uint8_t* data, const FlowStamp& stamp, bool ce,
              uint64_t now);
  void send(const std::vector<uint8_t>& frame, uint8_t priority, uint64_t sequence,
            uint64_t send_time, uint64_t now);

  wire::MacAddress mac_;  // this host's: a flow's frame for another one is foreign
  SwitchState& state_;
  PriorityClassifier classifier_;
  FlowReceivedRecords& flows_;
  FlowCompleted on_complete_;
  std::unordered_map<uint32_t, std::unique_ptr<Receiver>> receivers_;  // by flow id
  // Expected flows without a receiver yet (expect_transport_flow), and how to make theirs.
  struct Expected {
    FlowTransport transport;
    TransportSettings settings;
    TickRate ticks;
  };
  std::unordered_map<uint32_t, Expected> expected_;  // by flow id
  HostSource* source_ = nullptr;
  pyrrha::HostRootPauses* root_pauses_ = nullptr;  // the TrafficHost's; shared with its source
  int pyrrha_priority_ = -1;
  rte_mempool* pool_ = nullptr;
  uint32_t bounce_capacity_packets_;
  OwnedCounter foreign_;
  OwnedCounter credit_frames_;
  OwnedCounter pyrrha_frames_;
  OwnedCounter resent_;
  OwnedCounter bounce_full_;
  OwnedCounter transport_sent_;
  OwnedCounter transport_received_;
  OwnedCounter transport_refused_;
};

}  // namespace fcswitch::lab
